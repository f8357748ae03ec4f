-- A note's HTML is rendered once, when the note is written, and stored with
-- it: rendering a long Markdown note takes tens of milliseconds of CPU, and a
-- page of 100 notes rendered on every read held the event loop for seconds
-- (src/domain/note-html.ts). Notes written before keep NULL here and are
-- rendered on first read under the same bounds.
ALTER TABLE "notes" ADD COLUMN "body_html" TEXT;
