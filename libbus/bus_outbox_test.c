/*  =========================================================================
    bus_outbox_test - outbox sequencing, rollback, replay and trim; inbox
    verdicts and cursors that move only on commit

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
#include "t.h"

static char s_dir[64];
static char s_path[128];

static void
s_fresh_dir(void)
{
    snprintf(s_dir, sizeof s_dir, "/tmp/backplane-outbox-XXXXXX");
    assert(mkdtemp(s_dir));
    snprintf(s_path, sizeof s_path, "%s/state.db", s_dir);
}

static void
s_remove_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", s_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "# could not remove %s\n", s_dir);
}

//  Decodes a bus.replay reply from writer.
static int
s_decode_replay(bus_writer_t *writer, proto_bus_replay_rep_t *rep)
{
    return proto_bus_replay_rep_decode(rep, bus_writer_data(writer),
                                       bus_writer_size(writer), NULL);
}

static void
test_sequences_are_per_domain_and_rollback_takes_none(void)
{
    s_fresh_dir();
    bus_db_t *db = bus_db_open(s_path, NULL, 0, NULL);
    T_ASSERT(db);
    bus_outbox_t *outbox = bus_outbox_new(db, "svc/n1", NULL);
    T_ASSERT(outbox);
    T_EQ_INT(bus_outbox_append(outbox, "kernel.started", "\x80", 1), 1);
    T_EQ_INT(bus_outbox_append(outbox, "kernel.stopped", "\x80", 1), 2);
    T_EQ_INT(bus_outbox_append(outbox, "session.created", "\x80", 1), 1);
    //  A rolled-back transaction leaves no hole in the sequence.
    T_EQ_INT(bus_db_begin(db), 0);
    T_EQ_INT(bus_outbox_append(outbox, "kernel.started", "\x80", 1), 3);
    T_EQ_INT(bus_db_rollback(db), 0);
    T_EQ_INT(bus_outbox_append(outbox, "kernel.started", "\x80", 1), 3);
    T_EQ_INT(bus_outbox_head(outbox, "kernel"), 3);
    T_EQ_INT(bus_outbox_head(outbox, "session"), 1);
    T_EQ_INT(bus_outbox_head(outbox, "nothing"), 0);
    //  Topics without a domain are refused.
    T_EQ_INT(bus_outbox_append(outbox, "nodot", "\x80", 1), 0);
    T_EQ_INT(bus_outbox_append(outbox, ".x", "\x80", 1), 0);
    uint64_t epoch = bus_outbox_epoch(outbox);
    T_ASSERT(epoch != 0);
    bus_outbox_destroy(&outbox);
    bus_db_destroy(&db);

    //  The epoch and the sequence survive a reopen.
    db = bus_db_open(s_path, NULL, 0, NULL);
    outbox = bus_outbox_new(db, "svc/n1", NULL);
    T_ASSERT(outbox);
    T_ASSERT(bus_outbox_epoch(outbox) == epoch);
    T_EQ_INT(bus_outbox_append(outbox, "kernel.started", "\x80", 1), 4);
    bus_outbox_destroy(&outbox);
    bus_db_destroy(&db);
    s_remove_dir();
}

static void
test_replay_answers_from_any_point_and_after_trim(void)
{
    s_fresh_dir();
    bus_db_t *db = bus_db_open(s_path, NULL, 0, NULL);
    bus_outbox_t *outbox = bus_outbox_new(db, "svc/n1", NULL);
    T_ASSERT(outbox);
    bus_db_begin(db);
    for (int i = 1; i <= 50; i++) {
        char body[2] = {(char) 0x91, (char) i}; //  [i]
        T_EQ_INT(bus_outbox_append(outbox, "test.tick", body, 2), i);
    }
    bus_db_commit(db);

    bus_writer_t *writer = bus_writer_new();
    proto_bus_replay_rep_t rep;
    T_EQ_INT(bus_outbox_replay(outbox, "test", 11, 5, writer), BUS_OK);
    T_EQ_INT(s_decode_replay(writer, &rep), BUS_OK);
    T_EQ_STR(rep.domain, "test");
    T_ASSERT(rep.epoch == bus_outbox_epoch(outbox));
    T_EQ_INT(rep.head, 50);
    T_EQ_INT(rep.first_retained, 1);
    T_EQ_INT(rep.events_count, 5);
    bus_reader_t *reader = bus_reader_new();
    for (size_t i = 0; i < rep.events_count; i++) {
        bus_event_t event;
        const proto_bus_frame_t *frame = &rep.events[i];
        T_EQ_INT(bus_event_parse(&event, reader, frame->topic, strlen(frame->topic),
                                 frame->header, frame->header_size, frame->body,
                                 frame->body_size, NULL),
                 BUS_OK);
        T_EQ_INT(event.header.seq, 11 + i);
        T_EQ_STR(event.header.src, "svc/n1");
        T_EQ_INT(event.body[1], (int) (11 + i));
    }
    proto_bus_replay_rep_clear(&rep);

    //  Past the head: an empty answer that still says where the head is.
    bus_writer_reset(writer);
    T_EQ_INT(bus_outbox_replay(outbox, "test", 51, 100, writer), BUS_OK);
    T_EQ_INT(s_decode_replay(writer, &rep), BUS_OK);
    T_EQ_INT(rep.events_count, 0);
    T_EQ_INT(rep.head, 50);
    proto_bus_replay_rep_clear(&rep);

    //  Keep the newest 20: replay from 1 starts at the first retained.
    T_EQ_INT(bus_outbox_trim(outbox, 20), 30);
    bus_writer_reset(writer);
    T_EQ_INT(bus_outbox_replay(outbox, "test", 1, 0, writer), BUS_OK);
    T_EQ_INT(s_decode_replay(writer, &rep), BUS_OK);
    T_EQ_INT(rep.first_retained, 31);
    T_EQ_INT(rep.events_count, 20);
    proto_bus_replay_rep_clear(&rep);
    //  Trimming never resets the sequence.
    T_EQ_INT(bus_outbox_append(outbox, "test.tick", "\x90", 1), 51);

    bus_reader_destroy(&reader);
    bus_writer_destroy(&writer);
    bus_outbox_destroy(&outbox);
    bus_db_destroy(&db);
    s_remove_dir();
}

static void
test_flush_sends_only_committed_events(void)
{
    s_fresh_dir();
    bus_hub_t *hub = bus_hub_new("tcp://127.0.0.1:*", "tcp://127.0.0.1:*", NULL);
    T_ASSERT(hub);
    bus_pub_t *pub = bus_pub_new(bus_hub_publish_endpoint(hub), "svc/n1", NULL);
    bus_sub_t *sub = bus_sub_new(bus_hub_subscribe_endpoint(hub), NULL);
    T_ASSERT(pub && sub);
    bus_sub_subscribe(sub, "", NULL, NULL);
    bus_db_t *db = bus_db_open(s_path, NULL, 0, NULL);
    bus_outbox_t *outbox = bus_outbox_new(db, "svc/n1", NULL);

    //  Slow joiner: publish ephemeral probes until one arrives.
    bus_event_t event;
    bool joined = false;
    for (int i = 0; i < 500 && !joined; i++) {
        bus_pub_send(pub, "probe.x", "\x80", 1);
        zmq_pollitem_t item = {zsock_resolve(bus_sub_sock(sub)), 0, ZMQ_POLLIN, 0};
        if (zmq_poll(&item, 1, 10) > 0)
            joined = bus_sub_recv(sub, &event, NULL) == BUS_OK;
    }
    T_ASSERT(joined);
    while (bus_sub_recv(sub, &event, NULL) == BUS_OK)
        ; //  drain extra probes

    bus_db_begin(db);
    bus_outbox_append(outbox, "test.tick", "\x80", 1);
    T_EQ_INT(bus_outbox_flush(outbox, pub), 0); //  not committed yet
    bus_db_rollback(db);
    T_EQ_INT(bus_outbox_flush(outbox, pub), 0); //  and never will be
    bus_db_begin(db);
    bus_outbox_append(outbox, "test.tick", "\x80", 1);
    bus_outbox_append(outbox, "test.tick", "\x80", 1);
    bus_db_commit(db);
    T_EQ_INT(bus_outbox_flush(outbox, pub), 2);
    T_EQ_INT(bus_outbox_flush(outbox, pub), 0);
    for (uint64_t seq = 1; seq <= 2; seq++) {
        zmq_pollitem_t item = {zsock_resolve(bus_sub_sock(sub)), 0, ZMQ_POLLIN, 0};
        T_ASSERT(zmq_poll(&item, 1, 2000) > 0);
        T_EQ_INT(bus_sub_recv(sub, &event, NULL), BUS_OK);
        T_EQ_STR(event.topic, "test.tick");
        T_EQ_INT(event.header.seq, seq);
        T_ASSERT(event.header.epoch == bus_outbox_epoch(outbox));
    }
    bus_outbox_destroy(&outbox);
    bus_db_destroy(&db);
    bus_sub_destroy(&sub);
    bus_pub_destroy(&pub);
    bus_hub_destroy(&hub);
    s_remove_dir();
}

static void
test_inbox_verdicts_and_commit_discipline(void)
{
    s_fresh_dir();
    bus_db_t *db = bus_db_open(s_path, NULL, 0, NULL);
    bus_inbox_t *inbox = bus_inbox_new(db, NULL);
    T_ASSERT(inbox);
    T_EQ_INT(bus_inbox_check(inbox, "p/1", "kernel", 7, 1), BUS_INBOX_APPLY);
    T_EQ_INT(bus_inbox_check(inbox, "p/1", "kernel", 7, 3), BUS_INBOX_GAP);

    //  A rolled-back advance does not move the cursor.
    bus_db_begin(db);
    T_EQ_INT(bus_inbox_advance(inbox, "p/1", "kernel", 7, 1), 0);
    bus_db_rollback(db);
    bus_inbox_discard(inbox);
    T_EQ_INT(bus_inbox_check(inbox, "p/1", "kernel", 7, 1), BUS_INBOX_APPLY);

    bus_db_begin(db);
    T_EQ_INT(bus_inbox_advance(inbox, "p/1", "kernel", 7, 1), 0);
    T_EQ_INT(bus_inbox_advance(inbox, "p/1", "kernel", 7, 2), 0);
    bus_db_commit(db);
    bus_inbox_committed(inbox);
    T_EQ_INT(bus_inbox_check(inbox, "p/1", "kernel", 7, 2), BUS_INBOX_DUPLICATE);
    T_EQ_INT(bus_inbox_check(inbox, "p/1", "kernel", 7, 3), BUS_INBOX_APPLY);
    //  Another domain of the same publisher is another stream.
    T_EQ_INT(bus_inbox_check(inbox, "p/1", "session", 7, 1), BUS_INBOX_APPLY);
    bus_inbox_destroy(&inbox);

    //  Cursors persist; a new epoch restarts the stream.
    inbox = bus_inbox_new(db, NULL);
    T_EQ_INT(bus_inbox_check(inbox, "p/1", "kernel", 7, 2), BUS_INBOX_DUPLICATE);
    T_EQ_INT(bus_inbox_check(inbox, "p/1", "kernel", 9, 1), BUS_INBOX_APPLY);
    T_EQ_INT(bus_inbox_cursor(inbox, "p/1", "kernel")->seq, 0);
    bus_inbox_destroy(&inbox);
    bus_db_destroy(&db);
    s_remove_dir();
}

//  Runs sql on the database at s_path, as a crash or a power loss would
//  leave it (the outbox is closed by then).
static int
s_tamper(const char *sql)
{
    bus_db_t *db = bus_db_open(s_path, NULL, 0, NULL);
    int rc = db ? bus_db_exec(db, sql) : -1;
    bus_db_destroy(&db);
    return rc;
}

//  A publisher whose process died keeps its epoch (nothing committed is lost
//  then); one whose machine stopped under it starts a new epoch, so that a
//  subscriber applies the events that take the numbers the lost commits had.
static void
test_new_epoch_after_the_machine_stopped(void)
{
    s_fresh_dir();
    bus_db_t *db = bus_db_open(s_path, NULL, 0, NULL);
    bus_outbox_t *outbox = bus_outbox_new(db, "svc/n1", NULL);
    T_ASSERT(outbox);
    for (int i = 1; i <= 3; i++)
        T_EQ_INT(bus_outbox_append(outbox, "kernel.started", "\x80", 1), i);
    uint64_t epoch = bus_outbox_epoch(outbox);
    bus_outbox_destroy(&outbox);
    bus_db_destroy(&db);

    //  The subscriber applied all three.
    char inbox_path[160];
    snprintf(inbox_path, sizeof inbox_path, "%s/subscriber.db", s_dir);
    bus_db_t *sub_db = bus_db_open(inbox_path, NULL, 0, NULL);
    bus_inbox_t *inbox = bus_inbox_new(sub_db, NULL);
    T_ASSERT(inbox);
    bus_db_begin(sub_db);
    for (int i = 1; i <= 3; i++) {
        T_EQ_INT(bus_inbox_check(inbox, "svc/n1", "kernel", epoch, (uint64_t) i),
                 BUS_INBOX_APPLY);
        T_EQ_INT(bus_inbox_advance(inbox, "svc/n1", "kernel", epoch, (uint64_t) i), 0);
    }
    bus_db_commit(sub_db);
    bus_inbox_committed(inbox);

    //  kill -9 (the outbox was not closed), same boot: same epoch, same stream.
    T_EQ_INT(s_tamper("UPDATE bus_outbox_meta SET value = 1 WHERE key = 'open'"), 0);
    db = bus_db_open(s_path, NULL, 0, NULL);
    outbox = bus_outbox_new(db, "svc/n1", NULL);
    T_ASSERT(outbox);
    T_ASSERT(bus_outbox_epoch(outbox) == epoch);
    T_EQ_INT(bus_outbox_head(outbox, "kernel"), 3);
    bus_outbox_destroy(&outbox);
    bus_db_destroy(&db);

    //  The machine stopped while it ran: the last commit never reached the
    //  disk, and the machine booted again since.
    T_EQ_INT(s_tamper("UPDATE bus_outbox_meta SET value = 1 WHERE key = 'open';"
                      " UPDATE bus_outbox_meta SET value = 12345 WHERE key = 'boot';"
                      " DELETE FROM bus_outbox WHERE seq = 3"),
             0);
    db = bus_db_open(s_path, NULL, 0, NULL);
    outbox = bus_outbox_new(db, "svc/n1", NULL);
    T_ASSERT(outbox);
    uint64_t renewed = bus_outbox_epoch(outbox);
    T_ASSERT(renewed != epoch && renewed != 0);
    //  The next event is number 1 of the new stream, and the subscriber
    //  applies it (under the old epoch, number 3 again would be a duplicate).
    T_EQ_INT(bus_outbox_append(outbox, "kernel.started", "\x80", 1), 1);
    T_EQ_INT(bus_inbox_check(inbox, "svc/n1", "kernel", epoch, 3), BUS_INBOX_DUPLICATE);
    T_EQ_INT(bus_inbox_check(inbox, "svc/n1", "kernel", renewed, 1), BUS_INBOX_APPLY);
    //  A replay of the new epoch holds only the new stream.
    bus_writer_t *writer = bus_writer_new();
    T_EQ_INT(bus_outbox_replay(outbox, "kernel", 1, 0, writer), 0);
    proto_bus_replay_rep_t rep;
    T_EQ_INT(s_decode_replay(writer, &rep), 0);
    T_EQ_INT(rep.head, 1);
    T_EQ_INT(rep.events_count, 1);
    proto_bus_replay_rep_clear(&rep);
    bus_writer_destroy(&writer);
    bus_outbox_destroy(&outbox);
    bus_db_destroy(&db);

    //  A clean stop then a reboot: nothing was at risk, the epoch stays.
    T_EQ_INT(s_tamper("UPDATE bus_outbox_meta SET value = 777 WHERE key = 'boot'"), 0);
    db = bus_db_open(s_path, NULL, 0, NULL);
    outbox = bus_outbox_new(db, "svc/n1", NULL);
    T_ASSERT(outbox);
    T_ASSERT(bus_outbox_epoch(outbox) == renewed);
    T_EQ_INT(bus_outbox_head(outbox, "kernel"), 1);
    bus_outbox_destroy(&outbox);
    bus_db_destroy(&db);
    bus_inbox_destroy(&inbox);
    bus_db_destroy(&sub_db);
    s_remove_dir();
}
//  ---------------------------------------------------------------------------
//  A power loss, as SQLite sees one: a VFS over the default that keeps, at
//  each xSync of a file, a copy of the file as it then is (<path>.synced).
//  What the copies hold is what the disk held; s_power_loss makes the files
//  that again. Writes never synced are lost, as a machine that stops loses
//  what its page cache held.
typedef struct {
    sqlite3_file base;  //  pMethods: s_loss_io
    sqlite3_file *real; //  the default VFS's file, right after this struct
    char path[PATH_MAX];
} loss_file_t;

static sqlite3_vfs *s_real_vfs;
static sqlite3_vfs s_loss_vfs;

static void
s_copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
    char buffer[8192];
    size_t n;
    while (in && out && (n = fread(buffer, 1, sizeof buffer, in)) > 0)
        if (fwrite(buffer, 1, n, out) != n)
            fprintf(stderr, "# cannot copy %s to %s\n", from, to);
    if (out)
        fclose(out);
    if (in)
        fclose(in);
}

static sqlite3_file *
s_real(sqlite3_file *file)
{
    return ((loss_file_t *) file)->real;
}

static int
s_loss_close(sqlite3_file *file)
{
    return s_real(file)->pMethods->xClose(s_real(file));
}

static int
s_loss_read(sqlite3_file *file, void *data, int amount, sqlite3_int64 offset)
{
    return s_real(file)->pMethods->xRead(s_real(file), data, amount, offset);
}

static int
s_loss_write(sqlite3_file *file, const void *data, int amount, sqlite3_int64 offset)
{
    return s_real(file)->pMethods->xWrite(s_real(file), data, amount, offset);
}

static int
s_loss_truncate(sqlite3_file *file, sqlite3_int64 size)
{
    return s_real(file)->pMethods->xTruncate(s_real(file), size);
}

//  What reached the disk: the file as it is now.
static int
s_loss_sync(sqlite3_file *file, int flags)
{
    int rc = s_real(file)->pMethods->xSync(s_real(file), flags);
    loss_file_t *self = (loss_file_t *) file;
    if (rc == SQLITE_OK && *self->path) {
        char synced[PATH_MAX + 8];
        snprintf(synced, sizeof synced, "%s.synced", self->path);
        s_copy_file(self->path, synced);
    }
    return rc;
}

static int
s_loss_file_size(sqlite3_file *file, sqlite3_int64 *size)
{
    return s_real(file)->pMethods->xFileSize(s_real(file), size);
}

static int
s_loss_lock(sqlite3_file *file, int level)
{
    return s_real(file)->pMethods->xLock(s_real(file), level);
}

static int
s_loss_unlock(sqlite3_file *file, int level)
{
    return s_real(file)->pMethods->xUnlock(s_real(file), level);
}

static int
s_loss_check_reserved(sqlite3_file *file, int *out)
{
    return s_real(file)->pMethods->xCheckReservedLock(s_real(file), out);
}

static int
s_loss_file_control(sqlite3_file *file, int op, void *arg)
{
    return s_real(file)->pMethods->xFileControl(s_real(file), op, arg);
}

static int
s_loss_sector_size(sqlite3_file *file)
{
    return s_real(file)->pMethods->xSectorSize(s_real(file));
}

static int
s_loss_device(sqlite3_file *file)
{
    return s_real(file)->pMethods->xDeviceCharacteristics(s_real(file));
}

static int
s_loss_shm_map(sqlite3_file *file, int page, int size, int extend, void volatile **out)
{
    return s_real(file)->pMethods->xShmMap(s_real(file), page, size, extend, out);
}

static int
s_loss_shm_lock(sqlite3_file *file, int offset, int n, int flags)
{
    return s_real(file)->pMethods->xShmLock(s_real(file), offset, n, flags);
}

static void
s_loss_shm_barrier(sqlite3_file *file)
{
    s_real(file)->pMethods->xShmBarrier(s_real(file));
}

static int
s_loss_shm_unmap(sqlite3_file *file, int delete_flag)
{
    return s_real(file)->pMethods->xShmUnmap(s_real(file), delete_flag);
}

static int
s_loss_fetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **out)
{
    return s_real(file)->pMethods->xFetch(s_real(file), offset, amount, out);
}

static int
s_loss_unfetch(sqlite3_file *file, sqlite3_int64 offset, void *page)
{
    return s_real(file)->pMethods->xUnfetch(s_real(file), offset, page);
}

static const sqlite3_io_methods s_loss_io = {
    3,
    s_loss_close,
    s_loss_read,
    s_loss_write,
    s_loss_truncate,
    s_loss_sync,
    s_loss_file_size,
    s_loss_lock,
    s_loss_unlock,
    s_loss_check_reserved,
    s_loss_file_control,
    s_loss_sector_size,
    s_loss_device,
    s_loss_shm_map,
    s_loss_shm_lock,
    s_loss_shm_barrier,
    s_loss_shm_unmap,
    s_loss_fetch,
    s_loss_unfetch,
};

static int
s_loss_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *out)
{
    (void) vfs;
    loss_file_t *self = (loss_file_t *) file;
    self->base.pMethods = NULL;
    self->real = (sqlite3_file *) (self + 1);
    snprintf(self->path, sizeof self->path, "%s", name ? name : "");
    int rc = s_real_vfs->xOpen(s_real_vfs, name, self->real, flags, out);
    if (rc == SQLITE_OK)
        self->base.pMethods = &s_loss_io;
    return rc;
}

//  A file deleted is gone from the disk too.
static int
s_loss_delete(sqlite3_vfs *vfs, const char *name, int sync_dir)
{
    (void) vfs;
    char synced[PATH_MAX + 8];
    snprintf(synced, sizeof synced, "%s.synced", name);
    unlink(synced);
    return s_real_vfs->xDelete(s_real_vfs, name, sync_dir);
}

//  Makes the loss VFS the default, or the default again the default.
static void
s_loss_vfs_use(bool on)
{
    if (on) {
        s_real_vfs = sqlite3_vfs_find(NULL);
        s_loss_vfs = *s_real_vfs;
        s_loss_vfs.zName = "powerloss";
        s_loss_vfs.szOsFile = (int) sizeof(loss_file_t) + s_real_vfs->szOsFile;
        s_loss_vfs.xOpen = s_loss_open;
        s_loss_vfs.xDelete = s_loss_delete;
        s_loss_vfs.pNext = NULL;
        if (sqlite3_vfs_register(&s_loss_vfs, 1) != SQLITE_OK)
            fprintf(stderr, "# cannot register the power-loss VFS\n");
    } else {
        sqlite3_vfs_register(s_real_vfs, 1);
        sqlite3_vfs_unregister(&s_loss_vfs);
    }
}

//  The machine stops now: path and its WAL become what was synced of them
//  (nothing, for a file never synced); the shared memory index goes, as
//  with any reboot. Takes the image first, while the database is open, so
//  that nothing its close writes and syncs counts; then runs close.
static void
s_power_loss(const char *path, void (*close)(void))
{
    const char *suffixes[] = {"", "-wal"};
    char file[PATH_MAX], synced[PATH_MAX + 8], image[PATH_MAX + 8];
    for (size_t i = 0; i < 2; i++) {
        snprintf(file, sizeof file, "%s%s", path, suffixes[i]);
        snprintf(synced, sizeof synced, "%s.synced", file);
        snprintf(image, sizeof image, "%s.image", file);
        unlink(image);
        if (access(synced, F_OK) == 0)
            s_copy_file(synced, image);
    }
    close();
    for (size_t i = 0; i < 2; i++) {
        snprintf(file, sizeof file, "%s%s", path, suffixes[i]);
        snprintf(image, sizeof image, "%s.image", file);
        unlink(file);
        if (access(image, F_OK) == 0 && rename(image, file) != 0)
            fprintf(stderr, "# cannot put %s back\n", file);
    }
    snprintf(file, sizeof file, "%s-shm", path);
    unlink(file);
}

static bus_db_t *s_loss_db;
static bus_outbox_t *s_loss_outbox;

static void
s_loss_close_all(void)
{
    bus_outbox_destroy(&s_loss_outbox);
    bus_db_destroy(&s_loss_db);
}

//  The power-loss case for real rather than by editing the file: a
//  publisher stopped cleanly, started again, published events a subscriber
//  applied, and the machine stopped before any checkpoint. Whatever of that
//  run reached the disk, the next start must not number new events as the
//  lost ones under the same epoch: the mark that the outbox is open must be
//  on the disk before any event is published.
static void
test_power_loss_never_reuses_a_number(void)
{
    s_fresh_dir();
    s_loss_vfs_use(true);
    s_loss_db = bus_db_open(s_path, NULL, 0, NULL);
    s_loss_outbox = bus_outbox_new(s_loss_db, "svc/n1", NULL);
    T_ASSERT(s_loss_outbox);
    for (int i = 1; i <= 3; i++)
        T_EQ_INT(bus_outbox_append(s_loss_outbox, "kernel.started", "\x80", 1), i);
    uint64_t epoch = bus_outbox_epoch(s_loss_outbox);
    s_loss_close_all(); //  a clean stop: the close checkpoints, all is on disk

    //  The subscriber applies everything it is sent.
    char inbox_path[160];
    snprintf(inbox_path, sizeof inbox_path, "%s/subscriber.db", s_dir);
    bus_db_t *sub_db = bus_db_open(inbox_path, NULL, 0, NULL);
    bus_inbox_t *inbox = bus_inbox_new(sub_db, NULL);
    T_ASSERT(inbox);
    bus_db_begin(sub_db);
    for (int i = 1; i <= 3; i++)
        T_EQ_INT(bus_inbox_advance(inbox, "svc/n1", "kernel", epoch, (uint64_t) i), 0);
    bus_db_commit(sub_db);
    bus_inbox_committed(inbox);

    //  Started again: events 4 and 5 are published and applied, then the
    //  power goes.
    s_loss_db = bus_db_open(s_path, NULL, 0, NULL);
    s_loss_outbox = bus_outbox_new(s_loss_db, "svc/n1", NULL);
    T_ASSERT(s_loss_outbox);
    T_ASSERT(bus_outbox_epoch(s_loss_outbox) == epoch);
    bus_db_begin(sub_db);
    for (int i = 4; i <= 5; i++) {
        T_EQ_INT(bus_outbox_append(s_loss_outbox, "kernel.started", "\x80", 1), i);
        T_EQ_INT(bus_inbox_advance(inbox, "svc/n1", "kernel", epoch, (uint64_t) i), 0);
    }
    bus_db_commit(sub_db);
    bus_inbox_committed(inbox);
    s_power_loss(s_path, s_loss_close_all);
    //  ... and the machine boots again (another boot id than the one the
    //  outbox recorded, wherever the record survived).
    T_EQ_INT(s_tamper("UPDATE bus_outbox_meta SET value = value + 1 WHERE key = 'boot'"),
             0);

    s_loss_db = bus_db_open(s_path, NULL, 0, NULL);
    s_loss_outbox = bus_outbox_new(s_loss_db, "svc/n1", NULL);
    T_ASSERT(s_loss_outbox);
    uint64_t now = bus_outbox_epoch(s_loss_outbox);
    uint64_t seq = bus_outbox_append(s_loss_outbox, "kernel.started", "\x80", 1);
    if (now == epoch)
        printf("# the same epoch after the power loss, next number %" PRIu64 "\n", seq);
    //  The subscriber takes the next event as new, never as a duplicate.
    T_EQ_INT(bus_inbox_check(inbox, "svc/n1", "kernel", now, seq), BUS_INBOX_APPLY);
    s_loss_close_all();
    bus_inbox_destroy(&inbox);
    bus_db_destroy(&sub_db);
    s_loss_vfs_use(false);
    s_remove_dir();
}

//  What /metrics shows of each stream: the outbox's depth per domain, and
//  a subscriber's lag behind a publisher's head (bus_node_metrics).
static const bus_outbox_stream_t *
s_stream(const bus_outbox_stream_t *streams, size_t count, const char *domain)
{
    for (size_t i = 0; i < count; i++)
        if (strcmp(streams[i].domain, domain) == 0)
            return &streams[i];
    return NULL;
}

static void
test_stream_depth_and_lag(void)
{
    s_fresh_dir();
    bus_db_t *db = bus_db_open(s_path, NULL, 0, NULL);
    T_ASSERT(db);
    bus_outbox_t *outbox = bus_outbox_new(db, "svc/n1", NULL);
    T_ASSERT(outbox);
    for (int i = 0; i < 3; i++)
        T_ASSERT(bus_outbox_append(outbox, "kernel.started", "\x80", 1) > 0);
    T_ASSERT(bus_outbox_append(outbox, "session.created", "\x80", 1) == 1);
    T_EQ_INT(bus_outbox_trim(outbox, 2), 1);
    bus_outbox_stream_t streams[4];
    size_t count = bus_outbox_streams(outbox, streams, 4);
    T_EQ_INT(count, 2);
    const bus_outbox_stream_t *kernel = s_stream(streams, count, "kernel");
    T_ASSERT(kernel);
    T_EQ_INT(kernel->head, 3);
    T_EQ_INT(kernel->first, 2);     //  the first one trimmed away
    T_EQ_INT(kernel->published, 0); //  nothing flushed: all three unpublished
    //  After a restart everything stored counts as published (replay has it).
    bus_outbox_destroy(&outbox);
    outbox = bus_outbox_new(db, "svc/n1", NULL);
    T_ASSERT(outbox);
    count = bus_outbox_streams(outbox, streams, 4);
    T_EQ_INT(count, 2);
    kernel = s_stream(streams, count, "kernel");
    T_ASSERT(kernel);
    T_EQ_INT(kernel->published, 3);
    T_EQ_INT(bus_outbox_streams(outbox, streams, 1), 1); //  max is honoured
    bus_outbox_destroy(&outbox);

    bus_inbox_t *inbox = bus_inbox_new(db, NULL);
    T_ASSERT(inbox);
    T_EQ_INT(bus_inbox_check(inbox, "p/1", "kernel", 7, 1), BUS_INBOX_APPLY);
    //  The publisher is heard of at 3: two behind the one about to apply.
    bus_inbox_seen(inbox, "p/1", "kernel", 7, 3);
    bus_inbox_seen(inbox, "p/1", "kernel", 7, 2); //  an older head changes nothing
    bus_inbox_seen(inbox, "p/1", "kernel", 8, 9); //  another epoch is not this stream
    const bus_inbox_cursor_t *cursor = bus_inbox_first(inbox);
    T_ASSERT(cursor);
    T_EQ_STR(cursor->src, "p/1");
    T_EQ_STR(cursor->domain, "kernel");
    T_EQ_INT(cursor->head, 3);
    T_EQ_INT(cursor->seq, 0);
    T_ASSERT(cursor->behind_since_ms > 0);
    T_ASSERT(bus_inbox_next(inbox) == NULL);
    bus_db_begin(db);
    T_EQ_INT(bus_inbox_advance(inbox, "p/1", "kernel", 7, 1), 0);
    bus_db_commit(db);
    bus_inbox_committed(inbox);
    T_EQ_INT(cursor->seq, 1);
    T_ASSERT(cursor->behind_since_ms > 0); //  still behind
    bus_db_begin(db);
    T_EQ_INT(bus_inbox_advance(inbox, "p/1", "kernel", 7, 2), 0);
    T_EQ_INT(bus_inbox_advance(inbox, "p/1", "kernel", 7, 3), 0);
    bus_db_commit(db);
    bus_inbox_committed(inbox);
    T_EQ_INT(cursor->seq, 3);
    T_EQ_INT(cursor->behind_since_ms, 0); //  caught up
    //  A new epoch forgets the old stream's head.
    T_EQ_INT(bus_inbox_check(inbox, "p/1", "kernel", 8, 1), BUS_INBOX_APPLY);
    T_EQ_INT(cursor->head, 0);
    bus_inbox_destroy(&inbox);
    bus_db_destroy(&db);
    s_remove_dir();
}

int
main(void)
{
    bus_log_init("bus_outbox_test", NULL, BUS_LOG_ERROR);
    T_RUN(test_sequences_are_per_domain_and_rollback_takes_none);
    T_RUN(test_replay_answers_from_any_point_and_after_trim);
    T_RUN(test_flush_sends_only_committed_events);
    T_RUN(test_inbox_verdicts_and_commit_discipline);
    T_RUN(test_new_epoch_after_the_machine_stopped);
    T_RUN(test_power_loss_never_reuses_a_number);
    T_RUN(test_stream_depth_and_lag);
    return T_DONE();
}
