import { useState } from 'preact/hooks';
import {
  CONSOLE_ROUTES,
  type DeadLetterPage,
  type DeadLetterQueue,
  type DeadLetterRow,
  REDRIVE_MAX_PER_CLICK,
  type RedriveResult,
} from '../../shared/api';
import { postAction } from '../api';
import { ConfirmButton } from '../components/confirm';
import { when } from '../components/format';
import { Load, useLoad } from '../components/load';
import { Table } from '../components/table';

/** The dead-letter queues, their messages with reason codes, and redrive. */
export function DeadLettersPage() {
  const [loaded, reload] = useLoad<DeadLetterPage>(CONSOLE_ROUTES.deadLetters);
  return (
    <section aria-labelledby="dlq-title">
      <h1 id="dlq-title">Dead-letter queues</h1>
      <Load loaded={loaded} what="the dead-letter queues">
        {(page) => page.queues.map((q) => <Queue key={q.name} queue={q} reload={reload} />)}
      </Load>
    </section>
  );
}

function Queue(props: { queue: DeadLetterQueue; reload: () => void }) {
  const { queue } = props;
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };
  const redrive = (messageIds?: string[]) =>
    postAction<RedriveResult>(CONSOLE_ROUTES.redrive, {
      queue: queue.name,
      ...(messageIds ? { messageIds } : {}),
    });
  const done = (r: RedriveResult) =>
    `Moved ${r.moved.length} message(s) to ${r.target}${r.missing.length > 0 ? `; ${r.missing.length} no longer there` : ''}; about ${r.remaining} left.`;
  const after = () => {
    setSelected(new Set());
    props.reload();
  };
  const tooMany = selected.size > REDRIVE_MAX_PER_CLICK;
  return (
    <section class="queue" aria-labelledby={`q-${queue.name}`}>
      <h2 id={`q-${queue.name}`}>
        <code>{queue.name}</code>: about {queue.approximateCount} message(s), redrive to{' '}
        <code>{queue.target}</code>
      </h2>
      <Table<DeadLetterRow>
        testId={`dlq-${queue.name}`}
        caption={`Messages of ${queue.name} (at most ${queue.messages.length} shown)`}
        rows={queue.messages}
        rowKey={(m) => m.messageId}
        empty="This queue is empty."
        columns={[
          {
            label: 'Select',
            cell: (m) => (
              <input
                type="checkbox"
                aria-label={`Select message ${m.messageId}`}
                checked={selected.has(m.messageId)}
                onChange={() => toggle(m.messageId)}
              />
            ),
          },
          { label: 'Reason', cell: (m) => <strong>{m.reason ?? '(none)'}</strong> },
          { label: 'Detail', cell: (m) => m.detail ?? '—' },
          { label: 'Event', cell: (m) => (m.type ? `${m.type} ${m.eventId ?? ''}` : '—') },
          {
            label: 'Subject',
            cell: (m) =>
              m.subject ? (
                <a href={`#/accounts/${encodeURIComponent(m.subject)}`}>{m.subject}</a>
              ) : (
                '—'
              ),
          },
          { label: 'Dead-lettered', cell: (m) => when(m.sentAt) },
          { label: 'Receives*', cell: (m) => m.receiveCount ?? '—', numeric: true },
          {
            label: 'Body',
            cell: (m) => (
              <details>
                <summary>Open</summary>
                <pre data-testid="dlq-body">{m.body}</pre>
              </details>
            ),
          },
        ]}
      />
      {queue.messages.length > 0 && (
        <p class="note" data-testid="receive-count-note">
          * Receives counts every receive of the message, the console's own listings included (each
          view reads the queue and makes the messages visible again).
        </p>
      )}
      {queue.messages.length > 0 && (
        <p class="buttons">
          <ConfirmButton<RedriveResult>
            label={`Redrive selected (${selected.size})`}
            title={`Redrive ${selected.size} message(s) of ${queue.name}?`}
            disabled={selected.size === 0 || tooMany}
            run={() => redrive([...selected])}
            done={done}
            after={after}
          >
            <p>
              The selected message(s) go back to <code>{queue.target}</code> and are applied again;
              one that is still poison returns here.
            </p>
            <Moves messages={queue.messages.filter((m) => selected.has(m.messageId))} />
          </ConfirmButton>
          <ConfirmButton<RedriveResult>
            label={`Redrive all (at most ${REDRIVE_MAX_PER_CLICK})`}
            title={`Redrive up to ${REDRIVE_MAX_PER_CLICK} messages of ${queue.name}?`}
            run={() => redrive()}
            done={done}
            after={after}
          >
            <p>
              Up to {REDRIVE_MAX_PER_CLICK} messages, oldest first, go back to{' '}
              <code>{queue.target}</code>. Click again for the next ones. Of those listed:
            </p>
            <Moves messages={oldestFirst(queue.messages).slice(0, REDRIVE_MAX_PER_CLICK)} />
          </ConfirmButton>
          {tooMany && (
            <span role="alert">Select at most {REDRIVE_MAX_PER_CLICK} messages per click.</span>
          )}
        </p>
      )}
    </section>
  );
}

/** What a redrive moves, in its dialog: each message's reason, event and id. */
function Moves(props: { messages: readonly DeadLetterRow[] }) {
  return (
    <ul data-testid="redrive-moves">
      {props.messages.map((m) => (
        <li key={m.messageId}>
          <strong>{m.reason ?? '(no reason)'}</strong>{' '}
          {m.type ? `${m.type} ${m.eventId ?? ''}` : ''} <code>{m.messageId}</code>
        </li>
      ))}
    </ul>
  );
}

const oldestFirst = (messages: readonly DeadLetterRow[]) =>
  [...messages].sort((a, b) => (a.sentAt ?? '').localeCompare(b.sentAt ?? ''));
