import type { Exchange } from './exchange';
import type { HttpRequest } from './uws';

export type Handler = (ex: Exchange, req: HttpRequest) => void;
export type Method = 'GET' | 'POST' | 'OPTIONS';

// What one path answers: a handler per method, and the Allow header for the others.
export interface Route {
  methods: Partial<Record<Method, Handler>>;
  allow: string;
}
