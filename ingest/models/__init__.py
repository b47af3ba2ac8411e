"""What the roles run, and where its weights come from: detectors and their typed detections,
trackers, text and image encoders, the vision-model client, weight resolution and the weight cache,
the int8 detector copy, the torch device, and the box and crop geometry the tracking, appearance and
action roles share. Library-specific code stays here or in the role that uses it, never on shared
types.
"""
