import type { Config } from '../../config/types';
import type { KeyRing } from '../../keys/key-ring';
import type { Places } from '../../locations/measure-at';
import type { Logger } from '../../log';
import type { Deadlines } from '../deadlines';
import type { OpenStreams } from '../open-streams';
import type { StreamMetrics } from '../stream-metrics';
import type { Admission } from './admit';

// What the stages share for the life of the server.
export interface PipelineContext {
  config: Config;
  admission: Admission;
  deadlines: Deadlines;
  log: Logger;
  keys: KeyRing | null; // null: keys are off
  streams: StreamMetrics;
  openStreams: OpenStreams; // ended with a problem event at shutdown
  places: Places; // where a request with `locations` can run
}
