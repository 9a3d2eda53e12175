"""FORESIGHT resolution (catalogue foresight-1.md sections 1-3): a score times an ease
factor is the success chance, one D100 is read as a quality rating, and contests, retries
and unskilled use build on it."""
