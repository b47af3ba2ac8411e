"""Reading media: probing a file before anything is decoded, the sampling plan and its one decode
pass, audio for speech recognition, and frame differencing that tells the tracking role which
sampled frames may skip the detector.
"""
