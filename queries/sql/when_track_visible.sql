-- name: when_track_visible
-- kind: macro
-- returns: video_id, track_id, category, interval_id, start_s, end_s, duration_s, frames
-- summary: Intervals when track `tid` is visible: sampled times merged when at most `gap_s` apart (a longer
--   gap: lost or occluded).
CREATE OR REPLACE MACRO when_track_visible(vid, tid, gap_s := 1.0) AS TABLE
WITH times AS (
    SELECT t_s, any_value(category) AS category
    FROM detections
    WHERE video_id = vid AND track_id = tid
      AND CASE WHEN gap_s IS NULL OR gap_s < 0 THEN error('gap_s must be >= 0, got ' || coalesce(gap_s::VARCHAR, 'NULL'))
          ELSE true END
    GROUP BY t_s
), islands AS (
    SELECT t_s, category,
           sum(CASE WHEN t_s - prev_s <= gap_s THEN 0 ELSE 1 END) OVER (ORDER BY t_s ROWS UNBOUNDED PRECEDING)
               AS interval_id
    FROM (SELECT t_s, category, lag(t_s) OVER (ORDER BY t_s) AS prev_s FROM times)
)
SELECT vid AS video_id, tid AS track_id, any_value(category) AS category, interval_id::INTEGER AS interval_id,
       min(t_s) AS start_s, max(t_s) AS end_s, max(t_s) - min(t_s) AS duration_s, count(*) AS frames
FROM islands
GROUP BY interval_id
ORDER BY start_s;
