// How an engine call that answers once, later, is made cancellable: `start` calls the engine with the
// callback to answer through and returns the engine's id; the returned function cancels that id, at most
// once and never after the answer came (the engine has already forgotten it then).
export function answerOnce<A extends unknown[]>(start: (answer: (...args: A) => void) => number, cancel: (id: number) => void, done: (...args: A) => void): () => void {
  let over = false;
  const id = start((...args) => {
    over = true;
    done(...args);
  });
  return () => {
    if (over) return;
    over = true;
    cancel(id);
  };
}
