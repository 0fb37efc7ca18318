"""The ``info`` command: format, header fields, frames, animations and skins."""

from __future__ import annotations

import collections
import warnings

from rich.table import Table

import pyvista_quake as pq
from pyvista_quake.cli._app import CLI_APP
from pyvista_quake.cli._app import ModelFlags
from pyvista_quake.cli._app import each
from pyvista_quake.cli._app import load_options
from pyvista_quake.cli._app import plain
from pyvista_quake.game.sources import Place
from pyvista_quake.model.loading import read_animation
from pyvista_quake.model.quake_model import why_nothing_to_draw


@CLI_APP.command
def info(models: list[str], /, *, json: bool = False, game: ModelFlags | None = None, verbose: bool = False) -> int:
    """Format, header fields, frames, animations and skins of each model.

    Exit code 1 when a model cannot be read (the others are still shown).

    Parameters
    ----------
    models
        Model files, folders (their PAK/PK3 files too), PAK/PK3 files, ARCHIVE:MEMBER paths or glob patterns.
    json
        Print one JSON document: a list with an entry per model.
    verbose
        Name the models whose skin is missing in the summary.
    """
    options = load_options(game)
    return each(models, lambda path: _info(path, options), _info_table, json, 'info', verbose)


def _info(path: Place, options: dict) -> dict:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always', pq.QuakeWarning)
        model = pq.load(path, **options)
        skins = _skins(model)
    spec = model.spec
    counts: dict = {'vertices': int(model.vertex_positions(0).shape[1]), 'triangles': sum(s.num_triangles for s in model.surfaces)}
    if model.alias is None:  # surfaces of their own
        counts |= {'surfaces': model.surface_names, 'tags': list(model.tags), 'skin_size': None}
    else:
        counts['skin_size'] = list(model.alias.skin_size)
    if model.skeletal is not None:
        counts['joints'] = [joint.name for joint in model.skeletal.joints]
    if not counts['triangles']:
        counts['nothing_to_draw'] = why_nothing_to_draw(model)
    level = model.level
    if level is not None:  # a level: its game, entities, brush models and lightmaps; it has no animation
        pages = model.lightmaps
        kinds = collections.Counter(entity.get('classname', '') for entity in level.entities)
        counts['level'] = {
            'game': level.game,
            'entities': len(level.entities),
            'brush_models': level.brush_models,
            'lightmap_pages': len(pages) if pages is not None else 0,
            'classnames': dict(kinds.most_common()),
        }
        try:
            c = model.collision
        except pq.QuakeFormatError:  # a level of another game, or collision lumps that do not hold
            pass
        else:
            grid = c.light_grid
            counts['level'] |= {
                'clusters': c.clusters,
                'areas': c.areas,
                'brushes': len(c.model_brush_list(0)),
                'light_grid': None if grid is None else [int(grid.shape[2]), int(grid.shape[1]), int(grid.shape[0])],
            }
            navigation = model.navigation
            if navigation is not None:  # the bots' maps/NAME.aas beside it: its areas and reachabilities by travel type
                types = collections.Counter(navigation.reachabilities.cell_data['travel_type'].tolist())
                counts['level']['navigation'] = {
                    'areas': navigation.num_areas,
                    'reachabilities': navigation.num_reachabilities,
                    'travel_types': dict(types.most_common()),
                }
    if model.skeletal is not None and not model.surfaces:  # an animation file: what it holds is its poses
        stored = read_animation(path)
        counts['frames'] = int(stored.poses.shape[0])  # the file's frames, not the one bind pose of no mesh
        counts['poses'] = int(stored.poses.shape[1])
        counts['stored_animations'] = {clip.name: {'frames': clip.count, 'fps': clip.fps} for clip in stored.clips}
    return {
        'model': str(path),
        'format': model.format,
        'game': spec.game,
        'frames': len(model),
        **counts,
        'header': {k: plain(v) for k, v in model.header.items() if k not in ('ident', 'magic')},
        'animations': {
            name: {'first': int(clip.frames[0]), 'last': int(clip.frames[-1]), 'frames': len(clip), 'duration': float(clip.duration)}
            for name, clip in model.animations.items()
            if level is None
        },
        'skins': skins,
        'warnings': [str(w.message) for w in caught if 'not found; tried' not in str(w.message)],  # the skin rows say it
        'ok': True,
    }


def _info_table(record: dict) -> Table:
    table = Table(title=record['model'], show_header=False, title_justify='left')
    table.add_row('format', f'{record["format"].upper()} ({record["game"]})')
    table.add_row('frames', str(record['frames']))
    table.add_row('vertices, triangles', f'{record["vertices"]}, {record["triangles"]}')
    if record['skin_size'] is not None:
        table.add_row('skin size', '{} x {}'.format(*record['skin_size']))
    if 'surfaces' in record:
        table.add_row('surfaces', ', '.join(record['surfaces']))
        table.add_row('tags', ', '.join(record['tags']) or 'none')
    if 'joints' in record:
        table.add_row('joints', f'{len(record["joints"])}: ' + ', '.join(record['joints']))
    if 'poses' in record:
        table.add_row('poses', f'{record["poses"]} a frame (an animation file)')
        for name, clip in record['stored_animations'].items():
            table.add_row(f'stored animation {name}', f'{clip["frames"]} frames at {clip["fps"]:g} fps')
    if 'level' in record:
        level = record['level']
        table.add_row('level', f'{level["game"]}: {level["brush_models"]} brush models, {level["lightmap_pages"]} lightmap pages')
        if 'clusters' in level:
            grid = 'no light grid' if level['light_grid'] is None else 'a light grid of {} x {} x {}'.format(*level['light_grid'])
            table.add_row('collision', f'{level["brushes"]} brushes, {level["clusters"]} clusters, {level["areas"]} areas, {grid}')
        if 'navigation' in level:
            nav = level['navigation']
            kinds = ', '.join(f'{count} {name}' for name, count in nav['travel_types'].items())
            table.add_row('navigation', f'{nav["areas"]} areas, {nav["reachabilities"]} reachabilities ({kinds or "none"})')
        top = ', '.join(f'{count} {name}' for name, count in list(level['classnames'].items())[:6])
        more = len(level['classnames']) - 6
        table.add_row('entities', f'{level["entities"]}: {top}' + (f' and {more} more kinds' if more > 0 else ''))
    if 'nothing_to_draw' in record:
        table.add_row('nothing to draw', record['nothing_to_draw'])
    for key, value in record['header'].items():
        table.add_row(key, str(value))
    for name, clip in record['animations'].items():
        table.add_row(f'animation {name}', f'frames {clip["first"]}-{clip["last"]} ({clip["frames"]}), {clip["duration"]:.2f} s')
    for skin in record['skins']:
        table.add_row('skin', f'{skin["name"]}: {skin["location"] or "MISSING"}' if skin['location'] != 'embedded' else skin['name'])
    for warning in record['warnings']:
        table.add_row('warning', warning)
    return table


def _skins(model: pq.QuakeModel) -> list[dict]:
    alias = model.alias
    if alias is None:
        return [
            {
                'name': s.name if s.image_name == s.name else f'{s.name}: {s.image_name}',  # a level's surface is named by its image
                'location': found.location if (found := s.image_file()) else None,
            }
            for s in model.surfaces
            if s.image_name is not None
        ]
    if model.spec.palette:
        part = model.data.alias
        assert part is not None  # a model with model.alias has its format's part
        embedded = [{'name': f'{k}: embedded, {len(s.pictures)} picture(s)', 'location': 'embedded'} for k, s in enumerate(part.skins)]
        return embedded or [{'name': 'none (Quake refuses this)', 'location': None}]
    names = alias.skin_names or ["(none named: an image with the model's name)"]
    return [{'name': name, 'location': found.location if (found := alias.skin_file(k)) else None} for k, name in enumerate(names)]
