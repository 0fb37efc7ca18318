/* A test oracle: ioquake3's own cm_patch.c, built against this harness, reads a patch and traces on stdin and
   prints its planes, facets and each trace's answer.  Built by dev/patch_oracle.py from an ioquake3 checkout;
   the engine's files are compiled where they are, never copied here. */
#include "cm_local.h"
#include "cm_patch.h"
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
static cvar_t one = {0};
cvar_t *cm_playerCurveClip = &one;
cvar_t *Cvar_Get(const char *a, const char *b, int c) { one.integer = 1; return &one; }
void QDECL Com_Error(int level, const char *fmt, ...) { va_list ap; va_start(ap, fmt); vfprintf(stderr, fmt, ap); va_end(ap); fprintf(stderr, "\n"); exit(3); }
void QDECL Com_Printf(const char *fmt, ...) { }
void QDECL Com_DPrintf(const char *fmt, ...) { }
#undef Hunk_Alloc
void *Hunk_AllocDebug(int size, ha_pref p, char *l, char *f, int line) { return calloc(1, size ? size : 1); }
void *Hunk_Alloc(int size, ha_pref preference) { return calloc(1, size ? size : 1); }
void *Z_MallocDebug(int size, char *l, char *f, int line) { return calloc(1, size); }
void Z_Free(void *p) { free(p); }
int main(int argc, char **argv) {
	int w, h, n, i, j, k;
	static vec3_t pts[129*129];
	one.integer = 1;
	if (scanf("%d %d", &w, &h) != 2) return 1;
	for (i = 0; i < w*h; i++) scanf("%f %f %f", &pts[i][0], &pts[i][1], &pts[i][2]);
	struct patchCollide_s *pc = CM_GeneratePatchCollide(w, h, pts);
	printf("%d %d\n", pc->numPlanes, pc->numFacets);
	for (i = 0; i < pc->numPlanes; i++) printf("%.9g %.9g %.9g %.9g\n", pc->planes[i].plane[0], pc->planes[i].plane[1], pc->planes[i].plane[2], pc->planes[i].plane[3]);
	for (i = 0; i < pc->numFacets; i++) {
		printf("%d %d", pc->facets[i].surfacePlane, pc->facets[i].numBorders);
		for (j = 0; j < pc->facets[i].numBorders; j++) printf(" %d %d", pc->facets[i].borderPlanes[j], pc->facets[i].borderInward[j]);
		printf("\n");
	}
	printf("%.9g %.9g %.9g %.9g %.9g %.9g\n", pc->bounds[0][0], pc->bounds[0][1], pc->bounds[0][2], pc->bounds[1][0], pc->bounds[1][1], pc->bounds[1][2]);
	/* traces: n, then start end mins maxs each */
	if (scanf("%d", &n) != 1) return 0;
	for (k = 0; k < n; k++) {
		vec3_t start, end, mins, maxs, offset; traceWork_t tw;
		scanf("%f %f %f %f %f %f %f %f %f %f %f %f", &start[0], &start[1], &start[2], &end[0], &end[1], &end[2], &mins[0], &mins[1], &mins[2], &maxs[0], &maxs[1], &maxs[2]);
		memset(&tw, 0, sizeof(tw));
		tw.trace.fraction = 1;
		for (i = 0; i < 3; i++) { offset[i] = (mins[i] + maxs[i]) * 0.5; tw.size[0][i] = mins[i] - offset[i]; tw.size[1][i] = maxs[i] - offset[i]; tw.start[i] = start[i] + offset[i]; tw.end[i] = end[i] + offset[i]; }
		for (i = 0; i < 8; i++) { tw.offsets[i][0] = tw.size[(i>>0)&1][0]; tw.offsets[i][1] = tw.size[(i>>1)&1][1]; tw.offsets[i][2] = tw.size[(i>>2)&1][2]; }
		for (i = 0; i < 3; i++) { if (tw.start[i] < tw.end[i]) { tw.bounds[0][i] = tw.start[i] + tw.size[0][i]; tw.bounds[1][i] = tw.end[i] + tw.size[1][i]; } else { tw.bounds[0][i] = tw.end[i] + tw.size[0][i]; tw.bounds[1][i] = tw.start[i] + tw.size[1][i]; } }
		if (start[0] == end[0] && start[1] == end[1] && start[2] == end[2]) {
			int in = CM_PositionTestInPatchCollide(&tw, pc);
			printf("P %d\n", in);
		} else {
			tw.isPoint = (tw.size[0][0] == 0 && tw.size[0][1] == 0 && tw.size[0][2] == 0);
			CM_TraceThroughPatchCollide(&tw, pc);
			printf("T %.9g %.9g %.9g %.9g\n", tw.trace.fraction, tw.trace.plane.normal[0], tw.trace.plane.normal[1], tw.trace.plane.normal[2]);
		}
	}
	return 0;
}
qboolean CM_BoundsIntersect( const vec3_t mins, const vec3_t maxs, const vec3_t mins2, const vec3_t maxs2 ) {
	if (maxs[0] < mins2[0] - SURFACE_CLIP_EPSILON || maxs[1] < mins2[1] - SURFACE_CLIP_EPSILON || maxs[2] < mins2[2] - SURFACE_CLIP_EPSILON
		|| mins[0] > maxs2[0] + SURFACE_CLIP_EPSILON || mins[1] > maxs2[1] + SURFACE_CLIP_EPSILON || mins[2] > maxs2[2] + SURFACE_CLIP_EPSILON) return qfalse;
	return qtrue;
}
void BotDrawDebugPolygons(void (*drawPoly)(int color, int numPoints, float *points), int value) {}
