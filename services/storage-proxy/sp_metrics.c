/*  =========================================================================
    sp_metrics - the storage-proxy's lines of GET /metrics: its volumes

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sp_classes.h"

struct _sp_metrics_t {
    bus_node_t *node;
    sp_volumes_t *volumes;
};

//  The families, in the order written; each one sample per volume.
enum { CAPACITY, USED, AVAILABLE, FOLDERS, FOLDER_USAGE, FAMILIES };

static const struct {
    const char *name;
    const char *help;
} s_families[FAMILIES] = {
    {"backplane_storage_volume_capacity_bytes", "size of the volume's file system"},
    {"backplane_storage_volume_used_bytes", "bytes used on the volume's file system"},
    {"backplane_storage_volume_available_bytes",
     "bytes an unprivileged writer may still use on the volume"},
    {"backplane_storage_folders", "virtual folders on the volume"},
    {"backplane_storage_folders_usage_bytes",
     "bytes the volume's folders used at their last usage scans"},
};

static void
s_write(void *arg, struct evbuffer *out)
{
    sp_metrics_t *self = arg;
    size_t count = sp_volumes_count(self->volumes);
    bus_db_t *db = bus_node_db(self->node);
    //  statvfs once per volume; a volume it fails on has no file system samples.
    sp_volume_usage_t *usage = calloc(count ? count : 1, sizeof *usage);
    bool *known = calloc(count ? count : 1, sizeof *known);
    for (size_t i = 0; usage && known && i < count; i++) {
        bus_error_t err = {0};
        const sp_volume_t *volume = sp_volumes_at(self->volumes, i);
        known[i] = sp_volumes_usage(volume, &usage[i], &err) == BUS_OK;
        if (!known[i])
            bus_log_warning("volume usage unknown volume=%s reason=\"%s\"", volume->name,
                            err.detail);
    }
    for (int f = 0; f < FAMILIES; f++) {
        bus_metrics_family(out, s_families[f].name, "gauge", s_families[f].help);
        for (size_t i = 0; i < count; i++) {
            const sp_volume_t *volume = sp_volumes_at(self->volumes, i);
            char labels[BUS_METRICS_LABELS_MAX] = "";
            bus_metrics_label(labels, sizeof labels, "volume", volume->name);
            double value;
            if (f == FOLDERS)
                value = (double) sp_db_folder_count(db, volume->name);
            else if (f == FOLDER_USAGE)
                value = (double) sp_db_folder_usage(db, volume->name);
            else if (!usage || !known || !known[i])
                continue;
            else
                value = (double) (f == CAPACITY ? usage[i].capacity
                                  : f == USED   ? usage[i].used
                                                : usage[i].available);
            bus_metrics_sample(out, s_families[f].name, labels, value);
        }
    }
    free(usage);
    free(known);
}

sp_metrics_t *
sp_metrics_new(bus_node_t *node, sp_volumes_t *volumes)
{
    assert(node && volumes);
    sp_metrics_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->node = node;
    self->volumes = volumes;
    bus_node_set_metrics(node, s_write, self);
    return self;
}

void
sp_metrics_destroy(sp_metrics_t **self_p)
{
    assert(self_p);
    sp_metrics_t *self = *self_p;
    if (self) {
        bus_node_set_metrics(self->node, NULL, NULL);
        free(self);
        *self_p = NULL;
    }
}
