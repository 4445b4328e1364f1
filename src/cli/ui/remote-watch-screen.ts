import type { RemoteScreen } from '../io.js';
import type { FromWorker, ToWorker } from '../worker-messages.js';
import { resourceDetail, type DetailLine } from './resource-detail.js';
import { rowKey, type RoundView } from './round-view.js';
import { createRoundViewEncoder } from './round-view-transfer.js';

/**
 * The worker's side of a full-screen `watch` the main thread draws: each round goes there as
 * plain data, against the round before (see `round-view-transfer.ts`); the detail pane asks for a resource's lines (`detail`) and this side answers from
 * the last round, where the record is. The screen's keys come back as messages.
 */
export function remoteWatchScreen(
  post: (message: FromWorker) => void,
  listen: (listener: (message: ToWorker) => void) => () => void,
): RemoteScreen {
  return (controls, options) => {
    let last: RoundView | undefined;
    const unlisten = listen((message) => {
      switch (message.kind) {
        case 'screen-key':
          if (message.key === 'toggle-pause') controls.togglePause();
          else controls.rerun();
          return;
        case 'detail':
          post({
            kind: 'detail-lines',
            id: message.id,
            lines: detailLines(last, message.type, message.key, options.stable === true),
          });
          return;
        default:
      }
    });
    const encode = createRoundViewEncoder();
    return {
      show: (view) => {
        last = view;
        post({ kind: 'screen-round', round: encode(view) });
      },
      roundStarted: (start) => {
        post({ kind: 'round-start', start });
      },
      pending: (changed) => {
        post({ kind: 'screen-pending', changed });
      },
      close: unlisten,
    };
  };
}

function detailLines(
  round: RoundView | undefined,
  type: string,
  key: string,
  stable: boolean,
): DetailLine[] {
  const group = round?.groups.find((g) => g.type === type);
  const row = group?.rows.find((r) => rowKey(r) === key);
  if (round === undefined || group === undefined || row === undefined) {
    return [{ text: '  no longer there', style: 'dim' }];
  }
  return resourceDetail(round, group, row, { stable });
}
