"""Run folders in and out: the store, the table schemas, the derived columns and the readers."""
