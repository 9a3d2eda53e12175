"""A result as a Discord message: one embed that a webhook or bot posts as it is.

The dice are written the way dice bots write them, a line a term:
``​`1d6x` [attacker base] → **6!** + 4 = 10``, a die that exploded marked `!` and a discarded
one struck through (`~~3~~`); the outcome's plain fields are the embed's fields and the footer
gives the seed to replay. Everything stays within Discord's limits (title 256, description
4096, 25 fields of 256 and 1024, footer 2048, 6000 in all); what does not fit is cut at a line
or a field and says how much was left out. Text that came from a request is escaped, and the
message mentions no one whatever it contains.
"""

from collections.abc import Iterator
from typing import Literal, Self

from pydantic import ConfigDict, Field, model_validator

from service.adapters.outcome import pairs, title
from service.adapters.terms import Face, Term, rolled, terms
from service.rules.model import Model
from service.rules.registry import Operation

__all__ = [
    "DiscordAllowedMentions",
    "DiscordEmbed",
    "DiscordEmbedField",
    "DiscordEmbedFooter",
    "DiscordMessage",
    "discord_message",
    "units",
]

TITLE = 256
DESCRIPTION = 4096
FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
EMBED_TOTAL = 6000
#: Room kept for the dice when the outcome's fields are many.
DICE_ROOM = 2000
#: A term's line is cut to this length, its faces elided.
LINE = 400
COLOURS = {
    "four-d8": 0x2E86AB,
    "four-sight": 0x7B2CBF,
    "foresight": 0x2A9D8F,
    "four-c": 0xE63946,
    "future-imperfect": 0xF4A261,
}
_MARKDOWN = str.maketrans({c: "\\" + c for c in "\\*_~`|>#[]<@"})


class _Discord(Model):
    # Every field is written, defaults too: the schema says so.
    model_config = ConfigDict(json_schema_serialization_defaults_required=True)


class DiscordEmbedField(_Discord):
    name: str = Field(min_length=1, max_length=FIELD_NAME)
    value: str = Field(min_length=1, max_length=FIELD_VALUE)
    inline: bool


class DiscordEmbedFooter(_Discord):
    text: str = Field(min_length=1, max_length=FOOTER)


class DiscordEmbed(_Discord):
    """A Discord embed; its text stays within Discord's per-part and 6000 total limits
    (the total counted as Discord counts, in UTF-16 code units)."""

    title: str = Field(min_length=1, max_length=TITLE)
    description: str = Field(min_length=1, max_length=DESCRIPTION)
    color: int = Field(ge=0, le=0xFFFFFF)
    fields: list[DiscordEmbedField] = Field(max_length=FIELDS)
    footer: DiscordEmbedFooter

    @model_validator(mode="after")
    def _within_total(self) -> Self:
        if _size(self.title, self.description, self.footer.text, self.fields) > EMBED_TOTAL:
            raise ValueError(f"an embed's text is at most {EMBED_TOTAL} characters")
        return self


class DiscordAllowedMentions(_Discord):
    """Mention no one: a name in the result never pings a user, a role or @everyone."""

    parse: list[Literal["users", "roles", "everyone"]] = Field(default=[], max_length=0)


class DiscordMessage(_Discord):
    """A message for Discord's `POST /webhooks/{id}/{token}` or a bot's create message."""

    embeds: list[DiscordEmbed] = Field(min_length=1, max_length=10)
    allowed_mentions: DiscordAllowedMentions = DiscordAllowedMentions()


def discord_message(op: Operation, result: Model) -> DiscordMessage:
    """The dice and outcome of a rolling operation's result as one embed."""
    heading = _cut(title(op), TITLE)
    footer = _cut(_footer(op, result), FOOTER)
    fields = _fields(op, result, EMBED_TOTAL - units(heading + footer) - DICE_ROOM)
    room = min(DESCRIPTION, EMBED_TOTAL - _size(heading, "", footer, fields))
    embed = DiscordEmbed(
        title=heading,
        description=_description(terms(rolled(op, result)), room),
        color=COLOURS.get(op.system, 0x808080),
        fields=fields,
        footer=DiscordEmbedFooter(text=footer),
    )
    return DiscordMessage(embeds=[embed])


def dice_line(term: Term) -> str:
    """`1d6x` [attacker base] → **6!** + 4 = 10: a term as dice bots write it."""
    head = f"`{term.expression}` [{_escaped(term.flavor)}] → "
    tail = f" = {term.total}" if len(term.faces) > 1 else ""
    faces = ""
    for count, face in enumerate(term.faces):
        shown = _face(face)
        if units(head + faces + shown + tail) + 8 > LINE:
            return f"{head}{faces} + … ({len(term.faces) - count} more){tail}"
        faces = f"{faces} + {shown}" if faces else shown
    return head + faces + tail


def _face(face: Face) -> str:
    if face.discarded:
        return f"~~{face.value}~~"
    return f"**{face.value}!**" if face.exploded else str(face.value)


def _description(found: list[Term], room: int) -> str:
    """A line a term, as many as fit in `room`, then how many were left out."""
    if not found:
        return "*No dice rolled.*"
    lines: list[str] = []
    used = 0
    dice_left = sum(len(term.faces) for term in found)
    for index, term in enumerate(found):
        written = dice_line(term)
        left = len(found) - index
        more = f"… and {left} more term{'s' * (left > 1)} ({dice_left} dice)"
        reserve = units(more) + 1 if index < len(found) - 1 else 0
        if used + units(written) + reserve > room:
            lines.append(more)
            break
        lines.append(written)
        used += units(written) + 1
        dice_left -= len(term.faces)
    return "\n".join(lines)


def _fields(op: Operation, result: Model, room: int) -> list[DiscordEmbedField]:
    """The outcome's plain fields, inline, as many as fit in `room` and 25."""
    found: list[DiscordEmbedField] = []
    written = list(_outcome(op, result))
    for index, field in enumerate(written):
        left = len(written) - index
        if (len(found) == FIELDS - 1 and left > 1) or _size("", "", "", [*found, field]) > room:
            found.append(
                DiscordEmbedField(name="…", value=f"{left} more in the JSON result", inline=False)
            )
            break
        found.append(field)
    return found


def _outcome(op: Operation, result: Model) -> Iterator[DiscordEmbedField]:
    for label, value in pairs(op, result):
        if value:
            yield DiscordEmbedField(
                name=_cut(_escaped(label), FIELD_NAME),
                value=_cut(_escaped(value), FIELD_VALUE),
                inline=True,
            )


def _footer(op: Operation, result: Model) -> str:
    seed = getattr(result, "seed", None)
    version = getattr(result, "rules_version", "")
    if seed is None:
        return f"Table dice · rules {version}"
    return (
        f"Seed {seed}: replay with POST /v1/{op.system}/{op.name} and "
        f'"dice": {{"seed": {seed}}} · rules {version}'
    )


def units(text: str) -> int:
    """The length Discord limits: UTF-16 code units, as a JavaScript string counts (two for
    a character beyond the BMP, an emoji in a name), never fewer than Python's characters."""
    return len(text.encode("utf-16-le")) // 2


def _size(title: str, description: str, footer: str, fields: list[DiscordEmbedField]) -> int:
    return units(title + description + footer + "".join(f.name + f.value for f in fields))


def _escaped(text: str) -> str:
    return text.translate(_MARKDOWN)


def _cut(text: str, limit: int) -> str:
    """At most `limit` characters, an ellipsis marking a cut; never splits an escape."""
    if units(text) <= limit:
        return text
    cut = text[: limit - 1]
    while units(cut) > limit - 1:
        cut = cut[:-1]
    if (len(cut) - len(cut.rstrip("\\"))) % 2:  # a lone backslash would escape the ellipsis
        cut = cut[:-1]
    return cut + "…"
