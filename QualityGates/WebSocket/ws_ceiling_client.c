/* The most any WebSocket client can reach against a given echo server on this machine: the
 * fewest instructions a client can spend per round trip — one blocking socket, the upgrade
 * handshake, then each message sent as one masked frame (RFC 6455 §5.2, FIN, no extensions) with
 * one send and its echo read with blocking recvs (a frame too large for the socket buffers sent
 * from a second thread meanwhile, as any client must), no event loop, no checks beyond the frame
 * header and the echoed bytes. Whatever rate it reaches is the server's and the kernel's share
 * of a round trip; a client's ratio against another client cannot pass this one's ratio. That
 * holds for small messages (one frame each way, nothing to overlap); for large ones how a client
 * overlaps sending and receiving weighs more, and this client's way (a thread sends, the caller
 * receives) is not the fastest against every server — the benchmark times it for small ones.
 * Usage: ws_ceiling_client <port> <small round trips> <large round trips>; prints
 * "<kind> <count> <seconds>" like the clients in Scripts/bench-websocket.sh (rt-small: 32-byte
 * text, rt-large: 1 MiB binary). Exit 1 on any failure. */
#include <arpa/inet.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int fail(const char *what) { fprintf(stderr, "ws_ceiling_client: %s\n", what); exit(1); }

static void send_all(int fd, const uint8_t *bytes, size_t count) {
    while (count > 0) {
        ssize_t n = send(fd, bytes, count, 0);
        if (n <= 0) fail("send failed");
        bytes += n;
        count -= (size_t)n;
    }
}

static void recv_all(int fd, uint8_t *bytes, size_t count) {
    while (count > 0) {
        ssize_t n = recv(fd, bytes, count, 0);
        if (n <= 0) fail("the server closed the connection");
        bytes += n;
        count -= (size_t)n;
    }
}

/* The frame of `payload` (opcode 1 text or 2 binary), masked, into `frame`; returns its size. */
static size_t make_frame(uint8_t *frame, int opcode, const uint8_t *payload, size_t count) {
    size_t at = 0;
    frame[at++] = (uint8_t)(0x80 | opcode);
    if (count < 126) {
        frame[at++] = (uint8_t)(0x80 | count);
    } else if (count <= 0xFFFF) {
        frame[at++] = 0x80 | 126;
        frame[at++] = (uint8_t)(count >> 8);
        frame[at++] = (uint8_t)count;
    } else {
        frame[at++] = 0x80 | 127;
        for (int shift = 56; shift >= 0; shift -= 8) frame[at++] = (uint8_t)((uint64_t)count >> shift);
    }
    uint8_t mask[4];
    for (int i = 0; i < 4; i++) mask[i] = (uint8_t)rand();
    memcpy(frame + at, mask, 4);
    at += 4;
    uint64_t mask64;   /* eight bytes a step: the mask repeats every four */
    for (int i = 0; i < 8; i++) ((uint8_t *)&mask64)[i] = mask[i & 3];
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        uint64_t word;
        memcpy(&word, payload + i, 8);
        word ^= mask64;
        memcpy(frame + at + i, &word, 8);
    }
    for (; i < count; i++) frame[at + i] = payload[i] ^ mask[i & 3];
    return at + count;
}

/* Reads one unmasked frame of `count` payload bytes into `payload`. */
static void read_frame(int fd, uint8_t *payload, size_t count) {
    uint8_t head[10];
    recv_all(fd, head, 2);
    size_t length = head[1] & 0x7F;
    if (head[1] & 0x80) fail("the server sent a masked frame");
    if (length == 126) { recv_all(fd, head + 2, 2); length = ((size_t)head[2] << 8) | head[3]; }
    else if (length == 127) { recv_all(fd, head + 2, 8); length = 0; for (int i = 2; i < 10; i++) length = (length << 8) | head[i]; }
    if (length != count) fail("an echo has another length");
    recv_all(fd, payload, count);
}

struct outgoing { int fd; const uint8_t *bytes; size_t count; };

static void *send_thread(void *argument) {
    struct outgoing *out = argument;
    send_all(out->fd, out->bytes, out->count);
    return NULL;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void run(int fd, const char *kind, int count, int opcode, size_t size) {
    uint8_t *payload = malloc(size), *echo = malloc(size), *frame = malloc(size + 14);
    if (!payload || !echo || !frame) fail("out of memory");
    for (size_t i = 0; i < size; i++) payload[i] = opcode == 1 ? 'x' : (uint8_t)(i * 131);
    double start = now();
    for (int i = 0; i < count; i++) {
        struct outgoing out = {fd, frame, make_frame(frame, opcode, payload, size)};
        if (out.count <= 4096) {
            send_all(fd, out.bytes, out.count);
            read_frame(fd, echo, size);
        } else {   /* the echo comes back while the frame is still going out */
            pthread_t thread;
            if (pthread_create(&thread, NULL, send_thread, &out) != 0) fail("no sending thread");
            read_frame(fd, echo, size);
            pthread_join(thread, NULL);
        }
        if (memcmp(echo, payload, size) != 0) fail("an echo differs");
    }
    printf("%s %d %.4f\n", kind, count, now() - start);
    fflush(stdout);
    free(payload); free(echo); free(frame);
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: ws_ceiling_client <port> <small round trips> <large round trips>\n"); return 2; }
    int port = atoi(argv[1]), small = atoi(argv[2]), large = atoi(argv[3]), one = 1;
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof address) != 0) fail("connect failed");
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    char request[256];
    int n = snprintf(request, sizeof request,
                     "GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n", port);
    send_all(fd, (const uint8_t *)request, (size_t)n);
    /* The response head, a byte at a time up to its blank line (nothing may follow it yet). */
    char head[4096];
    size_t got = 0;
    while (got < 4 || memcmp(head + got - 4, "\r\n\r\n", 4) != 0) {
        if (got == sizeof head) fail("the response head is too long");
        recv_all(fd, (uint8_t *)head + got, 1);
        got++;
    }
    if (strncmp(head, "HTTP/1.1 101", 12) != 0) fail("the upgrade was refused");
    /* The RFC's sample key has this accept value (RFC 6455 §1.3). */
    if (!strstr(head, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")) fail("wrong Sec-WebSocket-Accept");
    if (small > 0) run(fd, "rt-small", small, 1, 32);
    if (large > 0) run(fd, "rt-large", large, 2, 1 << 20);
    uint8_t close_frame[6] = {0x88, 0x80, 0, 0, 0, 0};
    send_all(fd, close_frame, sizeof close_frame);
    close(fd);
    return 0;
}
