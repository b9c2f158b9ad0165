// Work in flight that must be found again only all at once (on close), held without a hash table.
//
// A Map or Set whose size swings with the load grows and shrinks its table over and over. Once the
// collection itself is old, V8 allocates each new table in the old generation, and every discarded table
// still points at the entries it held: the scavenger treats those dead old tables as roots, so the
// entries' closures, and the requests they hold, are promoted and live until a major GC. Under ping load
// at 256 connections that was most of the old generation's growth (about 3 MB/s). A node per entry, linked
// both ways, leaves nothing behind once removed.
export interface ListNode<T> {
  value: T;
  prev: ListNode<T> | null;
  next: ListNode<T> | null;
  linked: boolean;
}

export class LinkedList<T> {
  private head: ListNode<T> | null = null;
  private count = 0;

  push(value: T): ListNode<T> {
    const node: ListNode<T> = { value, prev: null, next: this.head, linked: true };
    if (this.head !== null) this.head.prev = node;
    this.head = node;
    this.count++;
    return node;
  }

  // False when the node was removed already: callers use it as "was still in flight".
  remove(node: ListNode<T>): boolean {
    if (!node.linked) return false;
    node.linked = false;
    if (node.prev === null) this.head = node.next;
    else node.prev.next = node.next;
    if (node.next !== null) node.next.prev = node.prev;
    node.prev = node.next = null;
    this.count--;
    return true;
  }

  get size(): number {
    return this.count;
  }

  // Every value, the list emptied first: what is called with them may add or remove entries.
  drain(): T[] {
    const values: T[] = [];
    while (this.head !== null) {
      values.push(this.head.value);
      this.remove(this.head);
    }
    return values;
  }
}
