/* The GEOS C API baseline of the peers runner (Benchmarks/peers/spatial.py), as a C program:
 * a GEOS STRtree (node capacity 10) over point geometries, queried the way a C user of
 * GEOS 3.11 would: the query's lon/lat extent, candidates tested in the client.
 *
 *   cc -O2 -o geos_baseline geos_baseline.c $(pkg-config --cflags --libs geos)
 *   geos_baseline POINTS.csv QUERIES.txt > ANSWERS.txt
 *
 * POINTS.csv: "id,lat,lon" header, then one point a line (the id column is not read: a
 * point's number is its line, 0-based). QUERIES.txt, one query a line:
 *   R lat lon metres      radius: haversine on a sphere of R = 6,371,008.8 m (<= metres)
 *   N lat lon k           k nearest by the same haversine (a circle grown 4x until k inside)
 *   B west south east north   box, edges inclusive (west <= east)
 *   P wkt                 polygon: GEOS prepared covers (boundary included), planar lon/lat
 * Output: "build <microseconds> <rss bytes added>" then one line a query:
 * "<microseconds> <count> <point numbers...>" (nearest: nearest first, ties by number).
 */
#define GEOS_USE_ONLY_R_API
#include <geos_c.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define EARTH_R 6371008.8
#define DEG (M_PI / 180.0)

static GEOSContextHandle_t ctx;
static GEOSSTRtree *tree;
static double *lat, *lon;
static GEOSGeometry **geoms;
static size_t n;

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static long rss_bytes(void) {
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) { if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0; fclose(f); }
    return resident * sysconf(_SC_PAGESIZE);
}

static double haversine(double lat1, double lon1, double lat2, double lon2) {
    double dlat = (lat2 - lat1) * DEG, dlon = (lon2 - lon1) * DEG;
    double a = sin(dlat / 2) * sin(dlat / 2) + cos(lat1 * DEG) * cos(lat2 * DEG) * sin(dlon / 2) * sin(dlon / 2);
    return 2 * EARTH_R * asin(sqrt(a < 1 ? a : 1));
}

/* A growable list of point numbers, reused across queries. */
typedef struct { size_t *v; size_t len, cap; } List;
static void push(List *l, size_t i) {
    if (l->len == l->cap) { l->cap = l->cap ? l->cap * 2 : 1024; l->v = realloc(l->v, l->cap * sizeof(size_t)); }
    l->v[l->len++] = i;
}
static List cand, out;

static void collect(void *item, void *data) { push((List *)data, (size_t)item - 1); }

static void query_box(double w, double s, double e, double nn) {
    GEOSGeometry *env = GEOSGeom_createRectangle_r(ctx, w, s, e, nn);
    GEOSSTRtree_query_r(ctx, tree, env, collect, &cand);
    GEOSGeom_destroy_r(ctx, env);
}

/* Candidates of a spherical circle: its lat/lon extent, split at the antimeridian,
 * the whole longitude range when it reaches a pole. */
static void circle_candidates(double clat, double clon, double r) {
    cand.len = 0;
    double dlat = r / EARTH_R / DEG * 1.0000001 + 1e-9;
    double s = clat - dlat, nn = clat + dlat;
    if (s <= -90 || nn >= 90) { query_box(-180, s < -90 ? -90 : s, 180, nn > 90 ? 90 : nn); return; }
    double sin_ratio = sin(r / EARTH_R) / cos(clat * DEG);
    if (sin_ratio >= 1) { query_box(-180, s, 180, nn); return; }
    double dlon = asin(sin_ratio) / DEG * 1.0000001 + 1e-9;
    double w = clon - dlon, e = clon + dlon;
    if (w < -180) { query_box(w + 360, s, 180, nn); query_box(-180, s, e, nn); }
    else if (e > 180) { query_box(w, s, 180, nn); query_box(-180, s, e - 360, nn); }
    else query_box(w, s, e, nn);
}

static double *dist_scratch;
static int by_distance(const void *a, const void *b) {
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    if (dist_scratch[i] < dist_scratch[j]) return -1;
    if (dist_scratch[i] > dist_scratch[j]) return 1;
    return i < j ? -1 : i > j;
}

static void radius(double clat, double clon, double r) {
    circle_candidates(clat, clon, r);
    out.len = 0;
    for (size_t c = 0; c < cand.len; c++) {
        size_t i = cand.v[c];
        if (haversine(clat, clon, lat[i], lon[i]) <= r) push(&out, i);
    }
}

static void nearest(double clat, double clon, size_t k) {
    out.len = 0;
    if (k > n) k = n;
    for (double r = 1000;; r *= 4) {
        circle_candidates(clat, clon, r);
        size_t inside = 0;
        for (size_t c = 0; c < cand.len; c++) {
            size_t i = cand.v[c];
            dist_scratch[i] = haversine(clat, clon, lat[i], lon[i]);
            if (dist_scratch[i] <= r) cand.v[inside++] = i;
        }
        if (inside >= k || r > 2.1e7) {
            qsort(cand.v, inside, sizeof(size_t), by_distance);
            for (size_t c = 0; c < inside && c < k; c++) push(&out, cand.v[c]);
            return;
        }
    }
}

static void box(double w, double s, double e, double nn) {
    cand.len = 0;
    query_box(w, s, e, nn);
    out.len = 0;
    for (size_t c = 0; c < cand.len; c++) {
        size_t i = cand.v[c];
        if (lon[i] >= w && lon[i] <= e && lat[i] >= s && lat[i] <= nn) push(&out, i);
    }
}

static void polygon(const char *wkt, GEOSWKTReader *reader) {
    out.len = 0;
    cand.len = 0;
    GEOSGeometry *g = GEOSWKTReader_read_r(ctx, reader, wkt);
    if (!g) { fprintf(stderr, "geos_baseline: bad WKT\n"); exit(2); }
    const GEOSPreparedGeometry *p = GEOSPrepare_r(ctx, g);
    GEOSSTRtree_query_r(ctx, tree, g, collect, &cand);
    for (size_t c = 0; c < cand.len; c++)
        if (GEOSPreparedCovers_r(ctx, p, geoms[cand.v[c]]) == 1) push(&out, cand.v[c]);
    GEOSPreparedGeom_destroy_r(ctx, p);
    GEOSGeom_destroy_r(ctx, g);
}

static int cmp_size(const void *a, const void *b) {
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    return i < j ? -1 : i > j;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: geos_baseline POINTS.csv QUERIES.txt\n"); return 2; }
    FILE *f = fopen(argv[1], "r");
    if (!f) { perror(argv[1]); return 2; }
    size_t cap = 1 << 16;
    lat = malloc(cap * sizeof(double));
    lon = malloc(cap * sizeof(double));
    char line[1 << 16];
    if (!fgets(line, sizeof line, f)) return 2;           /* header */
    while (fgets(line, sizeof line, f)) {
        char *c1 = strchr(line, ',');
        if (!c1) continue;
        if (n == cap) { cap *= 2; lat = realloc(lat, cap * sizeof(double)); lon = realloc(lon, cap * sizeof(double)); }
        char *c2;
        lat[n] = strtod(c1 + 1, &c2);
        lon[n] = strtod(c2 + 1, NULL);
        n++;
    }
    fclose(f);
    dist_scratch = malloc(n * sizeof(double));

    ctx = GEOS_init_r();
    long rss0 = rss_bytes();
    double t0 = now_us();
    geoms = malloc(n * sizeof(GEOSGeometry *));
    tree = GEOSSTRtree_create_r(ctx, 10);
    for (size_t i = 0; i < n; i++) {
        geoms[i] = GEOSGeom_createPointFromXY_r(ctx, lon[i], lat[i]);
        GEOSSTRtree_insert_r(ctx, tree, geoms[i], (void *)(i + 1));
    }
    box(0, 0, 0, 0);   /* GEOS 3.11 builds the tree on the first query */
    double t1 = now_us();
    printf("build %.1f %ld\n", t1 - t0, rss_bytes() - rss0);

    GEOSWKTReader *reader = GEOSWKTReader_create_r(ctx);
    FILE *q = fopen(argv[2], "r");
    if (!q) { perror(argv[2]); return 2; }
    static char qline[1 << 22];
    while (fgets(qline, sizeof qline, q)) {
        double a, b, c, d;
        double start = now_us();
        switch (qline[0]) {
        case 'R': sscanf(qline + 2, "%lf %lf %lf", &a, &b, &c); radius(a, b, c); break;
        case 'N': sscanf(qline + 2, "%lf %lf %lf", &a, &b, &c); nearest(a, b, (size_t)c); break;
        case 'B': sscanf(qline + 2, "%lf %lf %lf %lf", &a, &b, &c, &d); box(a, b, c, d); break;
        case 'P': qline[strcspn(qline, "\n")] = 0; polygon(qline + 2, reader); break;
        default: continue;
        }
        double took = now_us() - start;
        if (qline[0] != 'N') qsort(out.v, out.len, sizeof(size_t), cmp_size);
        printf("%.2f %zu", took, out.len);
        for (size_t i = 0; i < out.len; i++) printf(" %zu", out.v[i]);
        putchar('\n');
    }
    fclose(q);
    GEOSWKTReader_destroy_r(ctx, reader);
    return 0;
}
