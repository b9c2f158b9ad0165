// A configuration value that stops the server at start; the message is one line naming the variable.
export class ConfigError extends Error {
  readonly code = 'config-invalid';
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`${variable}: ${reason}`);
  }
}
