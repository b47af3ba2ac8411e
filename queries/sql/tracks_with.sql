-- name: tracks_with
-- kind: macro
-- returns: video_id, track_id, other_track_id, category, frames_together, first_s, last_s
-- summary: Other tracks seen at the same sampled times as track `tid`, most shared frames first.
CREATE OR REPLACE MACRO tracks_with(vid, tid) AS TABLE
WITH mine AS (
    SELECT DISTINCT frame_index FROM detections WHERE video_id = vid AND track_id = tid
)
SELECT vid AS video_id, tid AS track_id, d.track_id AS other_track_id, any_value(d.category) AS category,
       count(DISTINCT d.frame_index) AS frames_together, min(d.t_s) AS first_s, max(d.t_s) AS last_s
FROM detections AS d
SEMI JOIN mine ON d.frame_index = mine.frame_index
WHERE d.video_id = vid AND d.track_id <> tid
GROUP BY d.track_id
ORDER BY frames_together DESC, other_track_id;
