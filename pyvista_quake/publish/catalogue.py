"""A browsable catalogue of a whole game: a static site to open from disk or to host.

``index.html`` shows every model as its thumbnail (the batch thumbnails, in
parallel with ``jobs``), with its name, format, counts and the engines'
verdicts, and filters by name, format and verdict.  Each model has a page
with the viewer (:mod:`pyvista_quake.exporting.html`), its animations,
skins, tags, header fields and engine findings; a player is one posed
player.  A second run redoes only the models any of whose files changed (size
or time): the model's, and every file its page was made from (images, ``.skin``
files, shaders, configs, animation files, the archives they came out of, the
folders looked in), recorded in the ``catalogue.json`` it keeps.  Nothing on the site
makes a request: its one script is a file beside the pages.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
import html
import json
import os
from pathlib import Path
import shutil
from typing import Any
from typing import Sequence

from pyvista_quake._base.files import atomic_write
from pyvista_quake._base.options import split_options
from pyvista_quake.exporting.html import STATIC
from pyvista_quake.exporting.html import SharedImages
from pyvista_quake.exporting.html import page
from pyvista_quake.formats import level_of_detail_base
from pyvista_quake.game.engines import ENGINES
from pyvista_quake.game.engines import Finding
from pyvista_quake.game.engines import examined
from pyvista_quake.game.engines import verdicts
from pyvista_quake.game.inputs import recording
from pyvista_quake.game.inputs import stamps
from pyvista_quake.game.sources import Place
from pyvista_quake.model.players import model_or_player
from pyvista_quake.model.posing import posable
from pyvista_quake.model.quake_model import QuakeModel
from pyvista_quake.render.batch import as_players
from pyvista_quake.render.batch import find_models
from pyvista_quake.render.batch import render_all
from pyvista_quake.render.batch import targets_for

MANIFEST = 'catalogue.json'


@dataclass
class CatalogueReport:
    """What a catalogue run did: the models it (re)made, the ones it kept from the last run, the ones that failed."""

    made: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)


def _stamp(place: Place) -> list:
    """What tells that a model changed: its file's (an archive's, a player folder's files') size and time."""
    real = place.path
    files = sorted(real.iterdir()) if real.is_dir() else [real]
    return [[f.name, f.stat().st_size, f.stat().st_mtime_ns] for f in files if f.is_file()]


def _count(n: int, word: str) -> str:
    """``1 frame``, ``2 frames``."""
    return f'{n} {word}' if n == 1 else f'{n} {word}s'


def _place_name(source: str | Path) -> str:
    """How the index names a folder or archive catalogued: with its parent (``base/0models.pk3``, ``baseq3/pk3``)."""
    path = Path(str(source))
    parts = path.resolve().parts if path.exists() else path.parts
    return '/'.join(parts[-2:]) if len(parts) > 1 else str(path)


def _unchanged(inputs: list | None, out: Path) -> bool:
    """Whether every file a page was made from (its paths relative to the site) is as it was (no record: redone)."""
    if inputs is None:
        return False
    return all(stamps([os.path.join(out, path)])[0][1:] == [size, time] for path, size, time in inputs)


def _below(location: str, base: Path) -> str:
    """Where a file was found, relative to the folder catalogued (``pak0.pk3:models/x/skin.tga``)."""
    base = base if base.is_dir() else base.parent  # an archive catalogued: from its folder
    return Path(os.path.relpath(os.path.abspath(location), os.path.abspath(base))).as_posix()


def _on_site(path: str, out: Path) -> str:
    """A path (a file, or ``ARCHIVE:MEMBER``) relative to the site's folder, with ``/`` separators."""
    return Path(os.path.relpath(os.path.abspath(path), os.path.abspath(out))).as_posix()


def _name(place: Place, base: Path) -> str:
    """A model's name on the site: its path inside its archive, or below the folder given."""
    if place.member is not None:
        return place.member
    path = place.path
    if path.is_relative_to(base) and path.relative_to(base).name:
        return path.relative_to(base).as_posix()
    return path.resolve().name


def _findings(model: QuakeModel) -> tuple[list[Finding], tuple[str, ...] | None]:
    """The engines' findings on the file a model was read from (the mesh a config loads, the member of an archive),
    and the engines that judge it (``None``: not read from a file)."""
    where = model.search
    if where.archive is not None:
        return examined(where.archive.path, where.member)[1:]
    return examined(where.model_path)[1:] if where.model_path is not None else ([], None)


def _finding(finding: Finding) -> str:
    return f'{ENGINES[finding.engine]}: {finding.field} = {finding.value!r}: {finding.rule} ({finding.where})'


def _images(models: list[QuakeModel], base: Path) -> list[str]:
    """The image files the models' surfaces draw, once each, in order."""
    found = (s.image_file() for m in models for s in m.surfaces)
    return list(dict.fromkeys(_below(str(f.location), base) for f in found if f is not None))


def _summary(source: Any, base: Path) -> dict:
    """A loaded model's (or player's) card and page facts: format, counts, animations, skins, tags, header, findings.

    Counts are over every model it draws; tags, joints and header are the one drawn model's (a player has none of its own).
    """
    posing = posable(source)
    parts = posing.parts
    judged = {label: _findings(p) for label, p in parts.items()}
    found = {label: fs for label, (fs, _) in judged.items()}
    engines = next((e for _, e in judged.values() if e is not None), None)
    one = posing.drawn
    return {
        'format': posing.label,
        'frames': max(len(p) for p in parts.values()),
        'surfaces': sum(len(p.surfaces) for p in parts.values()),
        'triangles': sum(s.num_triangles for p in parts.values() for s in p.surfaces),
        'animations': posing.animation_names,
        'skins': _images(posing.models, base),
        'skin_sets': posing.skin_sets,
        'tags': list(one.tags) if one is not None else [],
        'joints': [j.name for j in one.skeletal.joints] if one is not None and one.skeletal is not None else [],
        'header': {k: str(v) for k, v in one.header.items() if k not in ('ident', 'magic')} if one is not None else {},
        'findings': [f'{label}: {_finding(f)}' if label else _finding(f) for label, fs in found.items() for f in fs],
        'verdicts': verdicts([f for fs in found.values() for f in fs], posing.models[0].format, engines),
    }


def _levels_of_detail(found: list[tuple[Place, Path]]) -> tuple[list[tuple[Place, Path]], dict[str, list[Place]]]:
    """The models without the files of their levels of detail (``head_1.md3`` beside ``head.md3``), and those
    files by the model's path: the engine loads them as one model, so the site shows them as one."""
    paths = {str(path) for path, _ in found}
    levels: dict[str, list[Place]] = {}
    kept = []
    for path, base in found:
        lod = level_of_detail_base(str(path))
        if lod is not None and lod[0] in paths:
            levels.setdefault(lod[0], []).append(path)
        else:
            kept.append((path, base))
    return kept, {key: sorted(files, key=str) for key, files in levels.items()}


def _table(rows: list[tuple[str, str]]) -> str:
    cells = ''.join(f'<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>' for k, v in rows)
    return f'<table class="pq-facts">{cells}</table>'


def _facts(entry: dict) -> str:
    rows = [
        ('format', entry['format']),
        ('frames', str(entry['frames'])),
        ('surfaces', str(entry['surfaces'])),
        ('triangles', str(entry['triangles'])),
        ('animations', ', '.join(entry['animations']) or 'none'),
        ('skins', ', '.join(entry['skins']) or 'none found'),
        ('tags', ', '.join(entry['tags']) or 'none'),
    ]
    if len(entry.get('skin_sets', [])) > 1:
        rows.append(('skin sets', ', '.join(entry['skin_sets'])))
    if entry.get('levels'):
        rows.append(('levels of detail', f'{len(entry["levels"]) + 1}: {entry["name"]}, ' + ', '.join(entry['levels'])))
    if entry.get('joints'):
        rows.append(('joints', f'{len(entry["joints"])}: ' + ', '.join(entry['joints'])))
    rows += [(f'engine: {ENGINES.get(e, e)}', v) for e, v in entry['verdicts'].items()]
    rows += [('finding', f) for f in entry['findings']]
    rows += [(k, v) for k, v in entry['header'].items()]
    return '<style>.pq-facts{border-collapse:collapse;margin:8px 4px}.pq-facts th{text-align:left;padding:2px 12px 2px 0}</style>' + _table(rows)


_INDEX = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font: 14px system-ui, sans-serif; margin: 12px; }}
.bar {{ display: flex; gap: 8px; margin-bottom: 12px; }}
.cards {{ display: flex; flex-wrap: wrap; gap: 10px; }}
.card {{ width: 200px; border: 1px solid #ddd; padding: 4px; font-size: 12px; }}
.card img {{ width: 192px; height: 192px; object-fit: contain; background: #fff; }}
.card .name {{ font-weight: 600; overflow-wrap: anywhere; }}
.refuses, .fails, .error {{ color: #b00; }} .misdraws {{ color: #a60; }}
</style></head><body>
<h1>{title}</h1>
<div class="bar">
<input id="q" type="search" placeholder="name" aria-label="search by name">
<select id="format" aria-label="format"><option value="">every format</option>{formats}</select>
<select id="verdict" aria-label="verdict"><option value="">every verdict</option>{verdict_options}</select>
<span id="count"></span>
</div>
<div class="cards">{cards}</div>
<script>
const cards = [...document.querySelectorAll('.card')];
function filter() {{
  const q = document.getElementById('q').value.toLowerCase();
  const f = document.getElementById('format').value, v = document.getElementById('verdict').value;
  let shown = 0;
  for (const c of cards) {{
    const ok = c.dataset.name.includes(q) && (!f || c.dataset.format === f) && (!v || c.dataset.verdicts.split(' ').includes(v));
    c.style.display = ok ? '' : 'none'; shown += ok;
  }}
  document.getElementById('count').textContent = `${{shown}} of ${{cards.length}} models`;
}}
for (const id of ['q', 'format', 'verdict']) document.getElementById(id).addEventListener('input', filter);
filter();
</script></body></html>
"""


def _card(entry: dict, page_href: str | None, picture: str | None) -> str:
    if entry.get('error') is not None:  # a model that could not be read: its card says why, and the filters count it
        return (
            f'<div class="card failed" data-name="{html.escape(entry["name"].lower())}" data-format="failed" '
            f'data-verdicts="fails"><div class="img">(failed)</div><div class="name">{html.escape(entry["name"])}</div>'
            f'<div class="error">{html.escape(entry["error"])}</div><div><span class="fails">fails</span></div></div>'
        )
    worst = sorted(set(entry['verdicts'].values()))
    badge = ' '.join(f'<span class="{v}">{v}</span>' for v in worst if v != 'loads') or 'loads everywhere'
    image = f'<img src="{html.escape(picture)}" alt="" loading="lazy">' if picture else '<div class="img">(nothing to draw)</div>'
    return (
        f'<div class="card" data-name="{html.escape(entry["name"].lower())}" data-format="{entry["format"]}" '
        f'data-verdicts="{" ".join(worst)}"><a href="{html.escape(page_href or "")}">{image}</a>'
        f'<div class="name">{html.escape(entry["name"])}</div>'
        f'<div>{entry["format"].upper()}, {_count(entry["frames"], "frame")}, {_count(entry["triangles"], "triangle")}'
        f'{", " + _count(len(entry["levels"]) + 1, "level") + " of detail" if entry.get("levels") else ""}</div>'
        f'<div>{badge}</div></div>'
    )


def catalogue(
    sources: Sequence[str | Path],
    out_dir: str | Path,
    jobs: int | None = None,
    size: tuple[int, int] = (192, 192),
    title: str | None = None,
    **options: Any,
) -> CatalogueReport:
    """Write a static site of every model of a game folder, PAK, PK3 or model folder.

    Parameters
    ----------
    sources : list of str or pathlib.Path
        What :func:`pyvista_quake.thumbnails` takes: game folders, archives, folders, files, patterns.
    out_dir : str or pathlib.Path
        The site's folder: ``index.html``, ``thumbs/``, ``pages/``, ``viewer.bundle.js``, ``catalogue.json``.
    jobs : int, optional
        Worker processes for the pictures (as :func:`pyvista_quake.thumbnails`).
    size : tuple of int, default: (192, 192)
        The thumbnails' size.
    title : str, optional
        The index's title.
    **options
        Options of :func:`pyvista_quake.load` (``search_paths``, ``palette``...).

    Returns
    -------
    CatalogueReport
        The models made anew, kept from the last run, and failed (with why).

    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / 'assets').mkdir(exist_ok=True)
    load_options, _ = split_options(options)
    found, levels = _levels_of_detail(as_players(find_models(sources)))
    pictures = targets_for(found, out / 'thumbs')
    pages = [out / 'pages' / p.relative_to(out / 'thumbs').with_suffix('.html') for p in pictures]
    try:
        before = json.loads((out / MANIFEST).read_text())
    except (OSError, ValueError):
        before = {}
    report = CatalogueReport()
    entries: dict[str, dict] = {}
    todo = []
    base_of = {str(path): base for path, base in found}
    for (path, base), picture, page_path in zip(found, pictures, pages):
        key = str(path)
        stamp = [*_stamp(path), *(row for level in levels.get(key, []) for row in _stamp(level))]  # a level changed: redone
        old = before.get(_on_site(key, out))
        if old is not None and old.get('stamp') == stamp and page_path.is_file() and _unchanged(old.get('inputs'), out):
            entries[key] = old
            report.kept.append(key)
            continue
        todo.append((path, _name(path, base), picture, page_path, stamp))
    rendered = render_all([t[0] for t in todo], [t[2] for t in todo], jobs, size, **load_options)
    drawn = {r.source for r in rendered.written}
    for r in rendered.failed:
        report.failed[r.source] = str(r.error)
    shutil.copyfile(STATIC / 'viewer.bundle.js', out / 'viewer.bundle.js')
    for path, name, picture, page_path, stamp in todo:
        key = str(path)
        if key in report.failed:
            continue
        try:
            with recording() as read:  # every file the page is made from: images, .skin, shaders, configs, archives
                model, _ = model_or_player(path, **load_options)  # loaded once, for its facts and its page
                entry = {
                    'name': name,
                    **_summary(model, base_of[key]),
                    'stamp': stamp,
                    'picture': str(picture.relative_to(out)) if key in drawn else None,
                    'page': str(page_path.relative_to(out)),
                    'levels': [_name(level, base_of[key]) for level in levels.get(key, [])],
                }
                page_path.parent.mkdir(parents=True, exist_ok=True)
                library = os.path.relpath(out / 'viewer.bundle.js', page_path.parent)
                back = f'<p class="pq-back"><a href="{html.escape(os.path.relpath(out / "index.html", page_path.parent))}">all models</a></p>'
                if entry['triangles']:
                    # Each image once for the whole site (a level's textures are the game's, shared by its maps).
                    shared = SharedImages(out / 'assets', os.path.relpath(out / 'assets', page_path.parent) + '/')
                    text = page(model, title=entry['name'], library=library, extra=back + _facts(entry), assets=shared)
                else:  # an MD3 of tags only: nothing to play
                    text = (
                        f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{html.escape(entry["name"])}</title></head>'
                        f'<body>{back}{_facts(entry)}</body></html>'
                    )
            entry['inputs'] = [[_on_site(p, out), size, time] for p, size, time in stamps(read)]
            atomic_write(page_path, text.encode('utf-8'), sync=False)
        except Exception as error:  # noqa: BLE001 - one bad model never stops a catalogue
            report.failed[key] = f'{type(error).__name__}: {error}'
            continue
        entries[key] = entry
        report.made.append(key)
    names = {str(t[0]): t[1] for t in todo}
    for key, why in report.failed.items():  # a failed card, tried again next run (no stamp)
        entries[key] = {
            'name': names.get(key, key),
            'format': 'failed',
            'frames': 0,
            'triangles': 0,
            'verdicts': {'pyvista-quake': 'fails'},
            'error': why,
            'stamp': None,
            'picture': None,
            'page': None,
        }
    formats = sorted({e['format'] for e in entries.values()})
    verdict_names = sorted({v for e in entries.values() for v in e['verdicts'].values()})
    index = _INDEX.format(
        title=html.escape(title or ', '.join(_place_name(s) for s in sources)),
        formats=''.join(f'<option value="{f}">{f.upper()}</option>' for f in formats),
        verdict_options=''.join(f'<option value="{v}">{v}</option>' for v in verdict_names),
        cards=''.join(_card(e, e['page'], e['picture']) for e in sorted(entries.values(), key=lambda e: e['name'])),
    )
    atomic_write(out / 'index.html', index.encode('utf-8'), sync=False)
    # Paths relative to the site: a hosted site names no folder of the machine that built it.
    manifest = {_on_site(key, out): entry for key, entry in entries.items()}
    atomic_write(out / MANIFEST, json.dumps(manifest, indent=1).encode('utf-8'), sync=False)
    return report
