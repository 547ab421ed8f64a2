import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** Reads a whole event stream: its events, its comments, and the error that ended it, if any. */
export async function readEvents(res: Response): Promise<{ events: EventSourceMessage[]; comments: string[]; error: unknown }> {
  const events: EventSourceMessage[] = [];
  const comments: string[] = [];
  const parser = createParser({ onEvent: (e) => events.push(e), onComment: (c) => comments.push(c) });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let error: unknown = null;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(value);
    }
  } catch (err) {
    error = err;
  }
  return { events, comments, error };
}
