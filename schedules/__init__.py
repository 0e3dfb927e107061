"""The beat schedule lives here (`schedules.beat.beat_schedule`)."""
