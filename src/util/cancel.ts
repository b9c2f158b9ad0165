// How a tool learns that its caller went away. An AbortController per request costs more than the
// rest of a request's bookkeeping (the signal is an EventTarget, built lazily, with listener objects);
// nothing here needs more than a flag and "call me once if it happens".
export interface CancelToken {
  readonly aborted: boolean;
  // Calls `listener` once when the caller goes away, at once if it is gone already. The returned function
  // stops listening (for work that finishes first and must not be called back later).
  onAbort(listener: () => void): () => void;
}

// What onAbort returns when there is nothing to stop listening to.
export const NOT_LISTENING = (): void => undefined;

// A token its owner aborts: for work that cancels work of its own (e.g. the losers of a race).
export class CancelSource implements CancelToken {
  aborted = false;
  private listeners: Array<() => void> | null = null;

  onAbort(listener: () => void): () => void {
    if (this.aborted) {
      listener();
      return NOT_LISTENING;
    }
    const listeners = (this.listeners ??= []);
    listeners.push(listener);
    return () => {
      // Once aborted, the list is being called through: taking one out would skip the next.
      if (this.aborted) return;
      const at = listeners.indexOf(listener);
      if (at !== -1) listeners.splice(at, 1);
    };
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    const listeners = this.listeners;
    this.listeners = null;
    if (listeners !== null) for (const listener of listeners) listener();
  }
}
