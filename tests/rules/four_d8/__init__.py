"""Tests of the 4D8 system against its seed text (D:L<n>) and catalogue (part B)."""
