/*  =========================================================================
    runner.h - the kernel runner's state and the functions its files share

    One runner_t lives in main and is passed to every handler: the runner is a
    single-threaded poll loop (runner_main.c) over the agent connection
    (runner_conn.c), the code runs (runner_exec.c), the terminal (runner_pty.c)
    and the service-port apps (runner_service.c). Children are started by
    runner_spawn.c; the SSH key pair of images with dropbear is made at start
    (runner_sshkey.c).

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef RUNNER_H_INCLUDED
#define RUNNER_H_INCLUDED

//  Bytes read from any descriptor at once; also the largest STDOUT frame.
#define RUNNER_READ_CHUNK 65536
//  While an agent is connected and this much output waits for it, the runner stops
//  reading the children's pipes, so a fast writer blocks instead of filling memory.
#define RUNNER_OUT_HIGH (1024 * 1024)
//  While no agent is connected, output is queued up to this much for the next
//  connection; beyond it STDOUT/STDERR/PTY_OUT frames are dropped (FINISHED and
//  WAITING_INPUT are always queued). The run itself goes on either way.
#define RUNNER_OUT_DETACHED_MAX (1024 * 1024)
//  Most bytes drained from one pipe after its process ended (a grandchild may
//  still be writing to it).
#define RUNNER_DRAIN_MAX (4 * 1024 * 1024)
//  Keystrokes queued for the terminal before more are dropped.
#define RUNNER_PTY_IN_MAX (1024 * 1024)
//  Service-port apps started by SERVICE.
#define RUNNER_SERVICES_MAX 16
//  Descriptors a child gets (0..4: stdin, stdout, stderr, and the driver's pipes).
#define RUNNER_SPAWN_FDS 5
//  A child killed by signal n reports 128 + n, like a shell.
#define RUNNER_EXIT_SIGNAL_BASE 128
//  Exit code of a run whose program could not be started.
#define RUNNER_EXIT_SPAWN      127
#define RUNNER_DEFAULT_WORKDIR "/home/work"
#define RUNNER_SHELL           "/bin/sh"
#define RUNNER_BASH            "/bin/bash"
#define RUNNER_PTY_ROWS        24
#define RUNNER_PTY_COLS        80
#define RUNNER_LISTEN_BACKLOG  4
#define RUNNER_SOCKET_MODE     0666
#define RUNNER_BATCH_STEPS     3
//  Dropbear's key tools (Debian's dropbear-bin): an image that has them offers sshd,
//  and the runner makes the user's key pair at its start (runner_sshkey.c).
#define RUNNER_DROPBEARKEY     "/usr/bin/dropbearkey"
#define RUNNER_DROPBEARCONVERT "/usr/bin/dropbearconvert"
//  How long the runner waits for the key pair before it gives up, and how often it looks.
#define RUNNER_SSHKEY_WAIT_MS 10000
#define RUNNER_SSHKEY_POLL_MS 5

typedef struct {
    char *name;
    pid_t pid; //  0 when the slot is free
} runner_service_t;

typedef struct {
    //  Options (borrowed from argv).
    const char *socket_path;
    const char *runtime;
    const char *type;
    const char *workdir;
    bool drop; //  set uid/gid in children (when started as root with --user)
    uid_t uid;
    gid_t gid;

    //  Self-pipe written by the signal handler; listening socket; agent connection.
    int signal_fd;
    int listen_fd;
    int conn_fd;
    runner_buf_t in;       //  bytes from the agent not yet a whole frame
    runner_buf_t out;      //  whole frames for the agent
    size_t out_frame_left; //  unsent bytes of the frame at the front of out
    size_t dropped;        //  output bytes dropped while no agent was connected

    //  The current EXEC or BATCH run.
    bool busy;
    uint32_t run_id;
    bool in_python; //  the run is in the persistent interpreter
    bool waiting_input;
    uint8_t input_password;
    bool batch;
    char *steps[RUNNER_BATCH_STEPS];
    int step;
    pid_t child_pid; //  sh/other/batch child, its own process group
    int child_out;
    int child_err;
    char *code_file; //  temp file of a run of another runtime type, unlinked after

    //  The persistent Python interpreter (type python), its own process group.
    pid_t py_pid;
    int py_out;
    int py_err;
    int py_cmd; //  runner -> driver: code blocks and input lines
    int py_ctl; //  driver -> runner: input requests and completion markers
    runner_buf_t py_cmdbuf;
    runner_buf_t py_ctlbuf;

    //  The terminal.
    pid_t pty_pid;
    int pty_fd;
    uint32_t pty_run_id;
    runner_buf_t pty_in;

    runner_service_t services[RUNNER_SERVICES_MAX];
    bool quit;
} runner_t;

//  What runner_spawn starts: argv[0] is looked up in PATH. fds[i] becomes the
//  child's descriptor i (-1: /dev/null for 0-2). With tty >= 0 the child gets a new
//  session with tty as stdin/out/err and controlling terminal; otherwise it leads a
//  new process group, so that signals reach everything it starts.
typedef struct {
    const char *const *argv;
    int fds[RUNNER_SPAWN_FDS];
    int nfds;
    int tty;
} runner_spawn_t;

//  runner_log.c: one log line on stderr (the container log). level: "error",
//  "warning", "notice", "info".
void runner_log(const char *level, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

//  runner_spawn.c: forks and execs in the workdir, as the user when r->drop.
//  Returns the child's pid, or -1 (errno set) when fork fails. A failing exec
//  shows on the child's stderr and exits RUNNER_EXIT_SPAWN.
pid_t runner_spawn(const runner_t *r, const runner_spawn_t *spec);
//  The exit code a wait status reports (128 + n for signal n).
int runner_exit_code(int status);
//  Sets O_NONBLOCK. Returns 0 or -1.
int runner_set_nonblock(int fd);
//  Closes *fd_p if open and sets it to -1.
void runner_close(int *fd_p);

//  runner_conn.c: the agent connection.
void runner_conn_accept(runner_t *r);
void runner_conn_on_io(runner_t *r, short revents);
void runner_conn_close(runner_t *r, const char *reason);
//  Queues one frame for the agent (see RUNNER_OUT_DETACHED_MAX). size is at most
//  AGENT_RUNNER_PAYLOAD_MAX.
void
runner_send(runner_t *r, uint8_t kind, uint32_t run_id, const void *data, size_t size);
//  Whether the children's output may be read now (backpressure, RUNNER_OUT_HIGH).
bool runner_output_allowed(const runner_t *r);
//  Reads one chunk of a child's output and sends it as kind for run_id (forward
//  false: drops it). Closes *fd_p at end of file. Returns the bytes read, 0 when
//  nothing more can be read now.
size_t
runner_pipe_read(runner_t *r, int *fd_p, uint8_t kind, uint32_t run_id, bool forward);
//  Reads a pipe until nothing is left now (at most RUNNER_DRAIN_MAX): the output a
//  process wrote before it reported or exited.
void
runner_pipe_drain(runner_t *r, int *fd_p, uint8_t kind, uint32_t run_id, bool forward);

//  runner_exec.c: EXEC, BATCH, INPUT, INTERRUPT, STATUS and the interpreter.
void runner_exec_init(runner_t *r);
int runner_exec_python_start(runner_t *r);
void runner_exec_on_exec(runner_t *r, const agent_runner_frame_t *frame);
void runner_exec_on_batch(runner_t *r, const agent_runner_frame_t *frame);
void runner_exec_on_input(runner_t *r, const agent_runner_frame_t *frame);
void runner_exec_on_interrupt(runner_t *r, const agent_runner_frame_t *frame);
void runner_exec_on_status(runner_t *r, const agent_runner_frame_t *frame);
void runner_exec_on_output(runner_t *r, int *fd_p, uint8_t kind);
void runner_exec_on_ctl(runner_t *r);
void runner_exec_on_cmd(runner_t *r);
//  Returns true when pid was the interpreter or the run's child.
bool runner_exec_reaped(runner_t *r, pid_t pid, int status);
//  Kills the interpreter and the run's child (shutdown) and frees the run state.
void runner_exec_stop(runner_t *r);

//  runner_pty.c: the terminal.
void runner_pty_on_open(runner_t *r, const agent_runner_frame_t *frame);
void runner_pty_on_data(runner_t *r, const agent_runner_frame_t *frame);
void runner_pty_on_resize(runner_t *r, const agent_runner_frame_t *frame);
void runner_pty_on_io(runner_t *r, short revents);
bool runner_pty_reaped(runner_t *r, pid_t pid, int status);
void runner_pty_stop(runner_t *r);

//  runner_sshkey.c: when the image has dropbear and the user no
//  ~/.ssh/authorized_keys, makes a key pair: its public half in authorized_keys, its
//  private half in OpenSSH format at <workdir>/id_container (Backend.AI's runner
//  does the same). Waits for it (at most RUNNER_SSHKEY_WAIT_MS). 0, or -1 when it
//  failed (logged; the runner goes on without a key).
int runner_sshkey_prepare(const runner_t *r);

//  runner_service.c: service-port apps.
void runner_service_on_start(runner_t *r, const agent_runner_frame_t *frame);
bool runner_service_reaped(runner_t *r, pid_t pid, int status);
void runner_service_stop(runner_t *r);

#endif
