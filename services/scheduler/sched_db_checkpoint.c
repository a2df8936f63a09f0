/*  =========================================================================
    sched_db_checkpoint - WAL checkpoints on a thread of their own

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sched_classes.h"

struct _sched_db_checkpoint_t {
    zactor_t *actor;
};

//  The actor: its connection, a checkpoint per period, until $TERM.
static void
s_actor(zsock_t *pipe, void *arg)
{
    bus_thread_block_signals();
    char *path = arg;
    sqlite3 *db = NULL;
    //  Its own connection, used by this thread only; reading the schema
    //  once finds the WAL.
    bool ok = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
                              NULL) == SQLITE_OK &&
              sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL) ==
                  SQLITE_OK;
    if (!ok)
        bus_log_warning(
            "checkpoint thread cannot open the database path=%s detail=\"%s\"", path,
            db ? sqlite3_errmsg(db) : "out of memory");
    zsock_signal(pipe, 0); //  started (zactor_new waits for it)
    zstr_send(pipe, ok ? "ok" : "failed");
    zpoller_t *poller = ok ? zpoller_new(pipe, NULL) : NULL;
    while (poller) {
        zsock_t *which = zpoller_wait(poller, SCHED_DB_CHECKPOINT_MS);
        if (which == pipe) {
            char *command = zstr_recv(pipe);
            bool term = !command || strcmp(command, "$TERM") == 0;
            zstr_free(&command);
            if (term)
                break;
        } else if (zpoller_terminated(poller))
            break;
        else {
            int rc = sqlite3_wal_checkpoint_v2(db, "main", SQLITE_CHECKPOINT_PASSIVE,
                                               NULL, NULL);
            if (rc != SQLITE_OK && rc != SQLITE_BUSY)
                bus_log_warning("checkpoint failed detail=\"%s\"", sqlite3_errmsg(db));
        }
    }
    zpoller_destroy(&poller);
    sqlite3_close(db);
    free(path);
}

sched_db_checkpoint_t *
sched_db_checkpoint_new(bus_db_t *db)
{
    assert(db);
    const char *file = sqlite3_db_filename(bus_db_handle(db), "main");
    if (!file || !*file)
        return NULL; //  in memory
    sched_db_checkpoint_t *self = calloc(1, sizeof *self);
    char *path = self ? strdup(file) : NULL;
    if (!path) {
        free(self);
        return NULL;
    }
    self->actor = zactor_new(s_actor, path); //  the thread frees path
    if (!self->actor) {
        free(path);
        free(self);
        return NULL;
    }
    //  Then whether its connection opened.
    char *started = zstr_recv(self->actor);
    bool ok = started && strcmp(started, "ok") == 0;
    zstr_free(&started);
    if (!ok)
        sched_db_checkpoint_destroy(&self);
    return self;
}

void
sched_db_checkpoint_destroy(sched_db_checkpoint_t **self_p)
{
    assert(self_p);
    sched_db_checkpoint_t *self = *self_p;
    if (self) {
        zactor_destroy(&self->actor);
        free(self);
        *self_p = NULL;
    }
}
