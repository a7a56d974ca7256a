/**
 * What the fuzz wing needs from outside it, handed down by the run floor (run/commands.ts,
 * run/run-all.ts): how to start the embedded reference deployment (server/start.ts) and the
 * example receiver the receiver fuzz checks itself against (examples/receiver/receiver.ts).
 */
import type { Server } from 'node:http';
import type { StartEmbedded } from '../core/target/resolve-target.ts';

export interface FuzzWiring {
  start: StartEmbedded;
  exampleReceiver: (o: { secret: string }) => Server;
}
