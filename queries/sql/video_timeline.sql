-- name: video_timeline
-- kind: macro
-- returns: the columns of timeline
-- summary: Timeline of video `vid` in time order, only events overlapping [from_s, to_s] when given.
CREATE OR REPLACE MACRO video_timeline(vid, from_s := NULL, to_s := NULL) AS TABLE
SELECT *
FROM timeline
WHERE video_id = vid
  AND (from_s IS NULL OR end_s >= from_s)
  AND (to_s IS NULL OR start_s <= to_s)
ORDER BY start_s, end_s, kind, item_id;
