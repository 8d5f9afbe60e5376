/** Opens a `--state` file on the thread that serves it best: a state with no URLs yet on a worker thread (its first run only writes), any other on this one (its runs wait on lookups). */
import { openSqliteState } from './sqlite.ts';
import type { StateStore } from './store.ts';
import { ThreadedStateStore } from './threaded.ts';

export async function openStateFile(path: string): Promise<StateStore> {
  const here = await openSqliteState(path);
  if (!here.isEmpty()) return here;
  here.close();
  return ThreadedStateStore.open(path);
}
