"""The installed wheel, as a user gets it: run with a fresh venv's python
from an empty directory (scripts/test.sh), so nothing of the source tree is
on the path. Checks that the package comes from site-packages, that its
type stubs are installed, and one known answer per module."""

import importlib.resources
import json
import pathlib
import sys
import sysconfig

import ito_codecs
from ito_codecs import hex, json as ijson, nip19, nostr

site = pathlib.Path(sysconfig.get_paths()["purelib"]).resolve()
here = pathlib.Path(ito_codecs.__file__).resolve()
assert site in here.parents, f"ito_codecs imported from {here}, not {site}"

files = {p.name for p in importlib.resources.files("ito_codecs").iterdir()}
for stub in ["py.typed", "__init__.pyi", "hex.pyi", "json.pyi", "nip19.pyi", "nostr.pyi"]:
    assert stub in files, f"{stub} missing from the installed package: {sorted(files)}"

assert hex.encode(b"\x00\xff") == "00ff"
assert ijson.quote('a"b') == '"a\\"b"'

events = pathlib.Path(sys.argv[1]).read_text().splitlines()
text = events[0]
event = json.loads(text)
assert nostr.event_id(text) == event["id"]
assert nostr.verify(text)
index = nostr.FilterIndex()
index.add("s", [{"kinds": [event["kind"]]}])
assert index.matches(text) == ["s"]
npub = nip19.encode("npub", event["pubkey"])
assert nip19.decode(npub)["data"] == event["pubkey"], nip19.decode(npub)
print(f"installed wheel OK: {here.parent}")
