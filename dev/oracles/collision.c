/* A test oracle: ioquake3's own collision code (cm_load.c, cm_test.c, cm_trace.c, cm_patch.c), built against this
   harness by dev/collision_oracle.py from an ioquake3 checkout (its files compiled where they are, never copied
   here).  Loads a map, then answers queries read from stdin, one a line:
     C x y z                       CM_PointContents (world)
     L x y z                       CM_PointLeafnum: leaf, cluster, area
     V ax ay az bx by bz           SV_inPVS as sv_game.c answers it
     T sx sy sz ex ey ez mins(3) maxs(3) mask   CM_BoxTrace (world, box): fraction end normal surfaceFlags contents startsolid allsolid */
#include "cm_local.h"
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
static cvar_t cvars[8];
static int ncvars;
cvar_t *Cvar_Get(const char *name, const char *value, int flags) {
	cvar_t *c = &cvars[ncvars++];
	c->integer = atoi(value); c->value = (float)atof(value);
	return c;
}
void QDECL Com_Error(int level, const char *fmt, ...) { va_list ap; va_start(ap, fmt); vfprintf(stderr, fmt, ap); va_end(ap); fprintf(stderr, "\n"); exit(3); }
void QDECL Com_Printf(const char *fmt, ...) { }
void QDECL Com_DPrintf(const char *fmt, ...) { }
void *Hunk_AllocDebug(int size, ha_pref p, char *l, char *f, int line) { return calloc(1, size ? size : 1); }
#undef Hunk_Alloc
void *Hunk_Alloc(int size, ha_pref preference) { return calloc(1, size ? size : 1); }
void *Z_MallocDebug(int size, char *l, char *f, int line) { return calloc(1, size); }
void Z_Free(void *p) { free(p); }
void BotDrawDebugPolygons(void (*drawPoly)(int color, int numPoints, float *points), int value) {}
static char *mapfile;
long FS_ReadFile(const char *qpath, void **buffer) {
	FILE *f = fopen(mapfile, "rb"); long n;
	if (!f) { *buffer = NULL; return -1; }
	fseek(f, 0, SEEK_END); n = ftell(f); fseek(f, 0, SEEK_SET);
	*buffer = malloc(n + 1); if (fread(*buffer, 1, n, f) != (size_t)n) exit(4); fclose(f);
	return n;
}
void FS_FreeFile(void *buffer) { }
unsigned Com_BlockChecksum(const void *buffer, int length) { return 0; }
int main(int argc, char **argv) {
	int checksum; char kind[4];
	mapfile = argv[1];
	CM_LoadMap("maps/oracle.bsp", qfalse, &checksum);
	while (scanf("%3s", kind) == 1) {
		if (kind[0] == 'C') {
			vec3_t p; scanf("%f %f %f", &p[0], &p[1], &p[2]);
			printf("%d\n", CM_PointContents(p, 0));
		} else if (kind[0] == 'L') {
			vec3_t p; int leaf; scanf("%f %f %f", &p[0], &p[1], &p[2]);
			leaf = CM_PointLeafnum(p);
			printf("%d %d %d\n", leaf, CM_LeafCluster(leaf), CM_LeafArea(leaf));
		} else if (kind[0] == 'V') {
			vec3_t a, b; int l1, l2, c1, c2, a1, a2; byte *mask; int ok = 1;
			scanf("%f %f %f %f %f %f", &a[0], &a[1], &a[2], &b[0], &b[1], &b[2]);
			l1 = CM_PointLeafnum(a); c1 = CM_LeafCluster(l1); a1 = CM_LeafArea(l1); mask = CM_ClusterPVS(c1);
			l2 = CM_PointLeafnum(b); c2 = CM_LeafCluster(l2); a2 = CM_LeafArea(l2);
			if (mask && (!(mask[c2 >> 3] & (1 << (c2 & 7))))) ok = 0;
			if (ok && !CM_AreasConnected(a1, a2)) ok = 0;
			printf("%d\n", ok);
		} else if (kind[0] == 'T') {
			vec3_t s, e, mins, maxs; int mask; trace_t tr;
			scanf("%f %f %f %f %f %f %f %f %f %f %f %f %d", &s[0], &s[1], &s[2], &e[0], &e[1], &e[2], &mins[0], &mins[1], &mins[2], &maxs[0], &maxs[1], &maxs[2], &mask);
			CM_BoxTrace(&tr, s, e, mins, maxs, 0, mask, qfalse);
			printf("%.9g %.9g %.9g %.9g %.9g %.9g %.9g %d %d %d %d\n", tr.fraction, tr.endpos[0], tr.endpos[1], tr.endpos[2],
				tr.plane.normal[0], tr.plane.normal[1], tr.plane.normal[2], tr.surfaceFlags, tr.contents, tr.startsolid, tr.allsolid);
		}
		fflush(stdout);
	}
	return 0;
}
