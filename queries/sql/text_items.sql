-- name: text_items
-- kind: view
-- returns: video_id, source, item_id, start_s, end_s, text
-- summary: All searchable text: source 'transcript' (segments), 'ocr_spans' (on-screen text), 'captions',
--   'summaries' (chapters and the video's summary, as 'title: text').
--   item_id as in text_embeddings.
CREATE OR REPLACE VIEW text_items AS
SELECT video_id, 'transcript' AS source, segment_id AS item_id, start_s, end_s, text FROM transcript
UNION ALL
SELECT video_id, 'ocr_spans', span_id, start_s, end_s, text FROM ocr_spans
UNION ALL
SELECT c.video_id, 'captions', c.caption_id, c.start_s, c.end_s, c.text
FROM captions AS c
WHERE c.level = 'clip'
   OR NOT EXISTS (SELECT 1 FROM captions AS cc WHERE cc.video_id = c.video_id AND cc.level = 'clip')
UNION ALL
SELECT video_id, 'summaries', summary_id, start_s, end_s, title || ': ' || text FROM summaries;
