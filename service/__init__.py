"""Adjudicator: a stateless rules service for five tabletop role-playing games."""

__all__: list[str] = []
