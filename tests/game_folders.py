"""Game folders the tests share: Red Eclipse players and weapons (Cube 2 configs), an MD5 pair, a page's info."""

from __future__ import annotations

import json
from pathlib import Path

from builders import two_joint_iqm
from builders import two_joint_md5
from PIL import Image

PLAYER_CFG = """iqmdir "actors/player"
iqmanim "idle" "idle.iqm" 10
if (|| [strcmp (mdlname) "actors/player/female/headless"] [strcmp (mdlname) "actors/player/male/headless"]) [
    iqmskin * "<dds>headless.png" "<dds>mask.png" 0.25 0.0 1 0
] [
    iqmskin * "<dds>diffuse.png" "<dds>mask.png" 0.25 0.0 1 0
]
"""


def red_eclipse_players(tmp_path) -> Path:
    """Red Eclipse's layout: a shared player.cfg, exec'd by each player's iqm.cfg, picks the skin by mdlname."""
    data = tmp_path / 'data'
    shared = data / 'actors' / 'player'
    for folder in (shared / 'male', shared / 'male' / 'headless'):
        folder.mkdir(parents=True)
        (folder / 'mesh.iqm').write_bytes(two_joint_iqm())
        (folder / 'iqm.cfg').write_text('iqmload "mesh.iqm" player\nexec "actors/player/player.cfg"\n')
    (shared / 'idle.iqm').write_bytes(two_joint_iqm())
    (shared / 'player.cfg').write_text(PLAYER_CFG)
    Image.new('RGB', (4, 4), (200, 30, 30)).save(shared / 'diffuse.png')
    Image.new('RGB', (4, 4), (30, 200, 30)).save(shared / 'headless.png')
    return shared


def red_eclipse_weapon(tmp_path) -> Path:
    """Red Eclipse's weapon layout: one mesh, and configs in vwep/, hwep/ and item/ that load ../grenade.md5mesh."""
    data = tmp_path / 'data'
    weapon = data / 'weapons' / 'grenade'
    weapon.mkdir(parents=True)
    mesh, anim = two_joint_md5()
    (weapon / 'grenade.md5mesh').write_text(mesh)
    (weapon / 'grenade-idle.md5anim').write_text(anim)
    Image.new('RGB', (4, 4), (200, 30, 30)).save(weapon / 'diffuse.png')
    for kind in ('vwep', 'hwep', 'item'):
        (weapon / kind).mkdir()
        (weapon / kind / 'md5.cfg').write_text(
            'md5load ../grenade.md5mesh\nmd5skin * "<dds>../diffuse.png"\nmd5anim "grenade" ../grenade-idle.md5anim 1\n'
        )
    return data


def md5_pair(folder: Path, mesh_name: str = 'Bob', anim_name: str = 'Bob') -> Path:
    """An MD5 mesh and (unless ``anim_name`` is empty) an animation of its skeleton in ``folder``."""
    mesh, anim = two_joint_md5()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f'{mesh_name}.md5mesh').write_text(mesh)
    if anim_name:
        (folder / f'{anim_name}.md5anim').write_text(anim)
    return folder / f'{mesh_name}.md5mesh'


def page_info(page: str) -> dict:
    """The info a viewer page starts with."""
    call = page[page.index('PyvistaQuakeViewer.start(') :]
    return json.loads(call[call.index('], ') + 3 : call.rindex(');')])
