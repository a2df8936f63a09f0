/*  =========================================================================
    agent_runner_proto.h - the frame protocol between the agent and the kernel
    runner (backplane-runner) over the runner's Unix socket

    A frame is `u32 length` (big-endian, of what follows), `u8 kind`, `u32 run_id`
    (big-endian), then `length - 5` payload bytes. Binary-safe, no other encoding.
    Both sides use these helpers; they need libc only, because the runner is a static
    binary that links nothing else.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef AGENT_RUNNER_PROTO_H_INCLUDED
#define AGENT_RUNNER_PROTO_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

//  Bytes before the payload: length, kind, run_id.
#define AGENT_RUNNER_HEADER_SIZE 9
//  Largest payload either side accepts; a larger frame closes the connection.
#define AGENT_RUNNER_PAYLOAD_MAX (16u * 1024 * 1024)
//  Exit code in FINISHED for a run refused because another one is running.
#define AGENT_RUNNER_EXIT_BUSY (-2)

//  Agent -> runner kinds.
#define AGENT_RUNNER_EXEC       1  //  code, run in the persistent interpreter
#define AGENT_RUNNER_BATCH      2  //  clean NUL build NUL exec (each /bin/sh -c)
#define AGENT_RUNNER_INPUT      3  //  a line of user input for a waiting run
#define AGENT_RUNNER_INTERRUPT  4  //  empty: SIGINT to the running code; "KILL": SIGKILL
#define AGENT_RUNNER_PTY_OPEN   5  //  "<rows> <cols>"
#define AGENT_RUNNER_PTY_DATA   6  //  bytes typed into the terminal
#define AGENT_RUNNER_PTY_RESIZE 7  //  "<rows> <cols>"
#define AGENT_RUNNER_SERVICE    8  //  service name NUL command line
#define AGENT_RUNNER_STATUS     9  //  empty: the runner answers STATUS_REPLY
#define AGENT_RUNNER_SHUTDOWN   10 //  empty: the runner exits 0

//  INTERRUPT's payload asking for SIGKILL to the run's whole process group
//  (code that ignores SIGINT); in the persistent interpreter it ends the
//  interpreter, and the next EXEC starts a fresh one. Any other payload: SIGINT.
#define AGENT_RUNNER_INTERRUPT_KILL "KILL"

//  Runner -> agent kinds.
#define AGENT_RUNNER_STDOUT         65 //  bytes
#define AGENT_RUNNER_STDERR         66 //  bytes
#define AGENT_RUNNER_WAITING_INPUT  67 //  1 byte: 1 when the prompt is a password
#define AGENT_RUNNER_FINISHED       68 //  i32 exit code, big-endian
#define AGENT_RUNNER_PTY_OUT        69 //  terminal bytes
#define AGENT_RUNNER_SERVICE_RESULT 70 //  "started", "running" or an error text
#define AGENT_RUNNER_STATUS_REPLY   71 //  "idle" or "busy <run_id>"

//  One decoded frame. The payload points into the caller's buffer (borrowed).
typedef struct {
    uint8_t kind;
    uint32_t run_id;
    const uint8_t *payload;
    size_t size;
} agent_runner_frame_t;

//  Results of agent_runner_frame_decode besides a positive frame size.
#define AGENT_RUNNER_NEED_MORE 0  //  the buffer holds no whole frame yet
#define AGENT_RUNNER_MALFORMED -1 //  length below 5 or payload above the maximum

//  Decodes the frame at the start of buf (len bytes). Returns the bytes the whole
//  frame takes (header and payload) and fills *frame, or AGENT_RUNNER_NEED_MORE, or
//  AGENT_RUNNER_MALFORMED. The kind is not checked: see agent_runner_kind_valid.
long
agent_runner_frame_decode(const uint8_t *buf, size_t len, agent_runner_frame_t *frame);

//  Writes the 9-byte header of a frame with a payload of size bytes into out.
//  size must be at most AGENT_RUNNER_PAYLOAD_MAX.
void agent_runner_header_encode(uint8_t out[AGENT_RUNNER_HEADER_SIZE],
                                uint8_t kind,
                                uint32_t run_id,
                                size_t size);

//  Writes a whole frame into out, which holds AGENT_RUNNER_HEADER_SIZE + size bytes.
//  Returns the bytes written.
size_t agent_runner_frame_encode(
    uint8_t *out, uint8_t kind, uint32_t run_id, const void *payload, size_t size);

//  True when kind is one the given direction may send: to_runner for agent ->
//  runner frames, else runner -> agent.
bool agent_runner_kind_valid(uint8_t kind, bool to_runner);

//  The kind's name ("EXEC", "FINISHED"), or "UNKNOWN". Static string.
const char *agent_runner_kind_name(uint8_t kind);

//  Big-endian u32 / i32 helpers for run ids and the FINISHED payload.
void agent_runner_put_u32(uint8_t out[4], uint32_t value);
uint32_t agent_runner_get_u32(const uint8_t in[4]);

//  Reads the exit code of a FINISHED payload. Returns 0, or -1 when the payload is
//  not exactly 4 bytes.
int agent_runner_finished_decode(const agent_runner_frame_t *frame, int32_t *code);

#endif
