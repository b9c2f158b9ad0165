import type { Answer } from '../../src/util/answer';

export { promised } from '../../src/util/answer';

// What something answering by callback (util/answer.ts) answers before its call returns, as a store in
// this process does. Fails when it answers later, more than once, or with an Error.
export function answerNow<T>(start: (done: Answer<T>) => void): T {
  const answers: Array<T | Error> = [];
  start((a) => void answers.push(a));
  if (answers.length !== 1) throw new Error(`answered ${answers.length} times before returning, not once`);
  const answer = answers[0] as T | Error;
  if (answer instanceof Error) throw answer;
  return answer;
}

// A callback with a bug: it counts its calls and throws on each.
export function throwingCallback(): { calls: number; done: Answer<unknown> } {
  const callback = {
    calls: 0,
    done: (): void => {
      callback.calls++;
      throw new Error('a bug in the callback');
    },
  };
  return callback;
}
