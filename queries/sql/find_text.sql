-- name: find_text
-- kind: macro
-- returns: video_id, source, item_id, start_s, end_s, text
-- summary: Transcript, on-screen text and captions containing `q` (case-insensitive substring), in time
--   order.
CREATE OR REPLACE MACRO find_text(q, vid := NULL) AS TABLE
SELECT *
FROM text_items
WHERE (vid IS NULL OR video_id = vid)
  AND contains(lower(text), lower(q))
ORDER BY video_id, start_s, source, item_id;
