-- name: category_counts
-- kind: view
-- returns: video_id, category, instances, first_s, last_s, detections
-- summary: Distinct instances (tracks) per video and category, with first appearance and last sighting.
CREATE OR REPLACE VIEW category_counts AS
SELECT video_id, category, count(*) AS instances, min(first_s) AS first_s, max(last_s) AS last_s,
       sum(num_detections)::BIGINT AS detections
FROM tracks
GROUP BY video_id, category;
