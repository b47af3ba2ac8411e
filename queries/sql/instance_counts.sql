-- name: instance_counts
-- kind: macro
-- returns: video_id, window_start_s, window_end_s, category, instances, max_visible, detections
-- summary: Per `window_s`-second window and category: distinct instances, most visible at once, boxes. Empty
--   windows left out.
CREATE OR REPLACE MACRO instance_counts(vid, window_s := 60.0) AS TABLE
WITH dets AS (
    SELECT category, track_id, t_s, floor(t_s / window_s)::BIGINT AS w
    FROM detections
    WHERE video_id = vid
      AND CASE WHEN window_s IS NULL OR window_s <= 0
               THEN error('window_s must be > 0, got ' || coalesce(window_s::VARCHAR, 'NULL'))
          ELSE true END
), per_time AS (
    SELECT w, category, t_s, count(*) AS n FROM dets GROUP BY w, category, t_s  -- one box per track and frame
), per_window AS (
    SELECT w, category, count(DISTINCT track_id) AS instances, count(*) AS detections FROM dets GROUP BY w, category
)
SELECT vid AS video_id, (p.w * window_s)::DOUBLE AS window_start_s, ((p.w + 1) * window_s)::DOUBLE AS window_end_s,
       p.category, p.instances, m.max_visible, p.detections
FROM per_window AS p
JOIN (SELECT w, category, max(n) AS max_visible FROM per_time GROUP BY w, category) AS m USING (w, category)
ORDER BY window_start_s, p.category;
