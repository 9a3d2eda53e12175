"""Adjudicator results as chat rolls: a Foundry VTT `Roll` (`foundry`) and a Discord message
(`discord`). Both are pure functions of an operation and the result `Operation.run` gave; the
dice are read from the result's roll log alone, so every rolling operation answers both."""

from service.adapters.discord import DiscordMessage, discord_message
from service.adapters.foundry import FoundryRoll, foundry_roll

__all__ = ["DiscordMessage", "FoundryRoll", "discord_message", "foundry_roll"]
