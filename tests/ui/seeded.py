"""A small store for the inspector's tests: two tenants' users, English and Chinese,
hostile text in every field a page shows; and a served app with their keys.

``HOSTILE`` holds a script tag, an image whose error handler sets ``window.__xss``, a
terminal colour escape and a right-to-left override: rendered inert, none of it runs
(a page that ran it would set ``window.__xss`` or log a CSP violation).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from live_service import Tenants

from langgraph_memory import MemoryManager
from langgraph_memory.config import HierarchySection, MemoryConfig
from langgraph_memory.embeddings import HashingEmbeddings
from langgraph_memory.integrations.server.tenancy import store_user_id

#: Text that must render inert everywhere.
HOSTILE = (
    '<script>window.__xss=1</script><img src=x onerror="window.__xss=2">'
    "\x1b[31mred\x1b[0m \u202eevil"
)
#: An id holding markup (ids may hold anything but control characters).
HOSTILE_ID = '<img src=x onerror="window.__xss=3">'
CHINESE = "我对花生过敏，请记住。"


@dataclass
class Seeded:
    """What :func:`seed` wrote: the keys and the ids the tests look for."""

    tenants: Tenants
    user: str = "alice"
    other_user: str = "bob"  # globex's
    session: str = "trip"
    deletable: str = "m-delete-me"
    deletable_text: str = "My locker is the one marked quokka-4471."
    hostile_message: str = "m-hostile"


def open_memory(root: Path) -> MemoryManager:
    """A SQLite memory in ``root`` whose sessions move pages to mid-term segments soon
    (a short-term window of two pages), with the hashing embedder (no model)."""
    config = MemoryConfig(hierarchy=HierarchySection(stm_capacity_pages=2))
    return MemoryManager(root, embeddings=HashingEmbeddings(), config=config)


def seed(mm: MemoryManager, root: Path) -> Seeded:
    """Write the tests' memory into ``mm`` (keys in ``root``) and flush."""
    s = Seeded(Tenants(root))
    alice = store_user_id("acme", s.user)
    mm.add_turn(alice, s.session, user="I prefer green tea in the morning.", assistant="Noted.")
    mm.add_turn(alice, s.session, user="I moved to Lyon last spring.", assistant="Lovely city!")
    mm.add_message(alice, s.session, "user", CHINESE, message_id="m-zh")
    mm.add_message(alice, s.session, "user", s.deletable_text, message_id=s.deletable)
    mm.add_message(
        alice,
        HOSTILE_ID,
        "user",
        HOSTILE + " I prefer " + HOSTILE,
        name=HOSTILE_ID[:40],
        message_id=s.hostile_message,
        metadata={HOSTILE[:30]: HOSTILE},
    )
    mm.add_message(alice, "s2", "user", "x", message_id=HOSTILE_ID)
    for i in range(30):  # more than a page of messages; pages move to a segment
        mm.add_turn(alice, "s2", user=f"Note {i}: the quarterly report is due.", assistant="OK.")
    mm.anchors.add(alice, "Always answer " + HOSTILE)
    mm.documents.add(alice, "# " + HOSTILE + "\n\nThe vet is open on Saturdays.", document_id="vet")
    mallory = store_user_id("acme", HOSTILE_ID)
    mm.add_message(mallory, "s1", "user", "I am the user with markup in my id.")
    bob = store_user_id("globex", s.other_user)
    mm.add_message(bob, "b1", "user", "Globex's secret plan is codenamed heron.")
    mm.flush()
    return s
