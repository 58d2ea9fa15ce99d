// libmicrohttpd (0.9.75+) for Tessera's loopback server: fixed-signature wrappers for the
// variadic calls Swift cannot import, plus a Linux helper (TCP_INFO idle time).
#ifndef TESSERA_CMHD_H
#define TESSERA_CMHD_H
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <microhttpd.h>

/// Percent-decodes `uri` in place as libmicrohttpd does; a result that holds a control byte (a
/// decoded %00 would cut the path short where C reads it) becomes the single byte 0x7F, which
/// the server answers with 400.
static inline size_t cmhd_unescape_strict(void *cls, struct MHD_Connection *c, char *uri)
{
    (void)cls; (void)c;
    size_t n = MHD_http_unescape(uri);
    for (size_t i = 0; i < n; i++) {
        unsigned char b = (unsigned char)uri[i];
        if (b < 0x20 || b == 0x7F) { uri[0] = 0x7F; uri[1] = '\0'; return 1; }
    }
    return n;
}

static inline struct MHD_Daemon *
cmhd_start_daemon(unsigned int flags, const struct sockaddr *addr,
                  MHD_AccessHandlerCallback handler, void *handler_cls,
                  MHD_RequestCompletedCallback completed,
                  MHD_NotifyConnectionCallback notify, void *notify_cls,
                  const struct MHD_OptionItem *options)
{
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_ARRAY, options,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, notify_cls,
                            MHD_OPTION_NOTIFY_CONNECTION, notify, notify_cls,
                            MHD_OPTION_SOCK_ADDR, addr,
                            MHD_OPTION_UNESCAPE_CALLBACK, cmhd_unescape_strict, NULL,
                            MHD_OPTION_END);
}

static inline uint16_t cmhd_bind_port(struct MHD_Daemon *d)
{
    const union MHD_DaemonInfo *i = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    return i ? i->port : 0;
}

static inline int cmhd_connection_fd(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *i = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    return i ? i->connect_fd : -1;
}

/// 1 when libmicrohttpd has actually suspended the connection, 0 when not (yet), -1 unknown.
static inline int cmhd_connection_is_suspended(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *i = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_SUSPENDED);
    return i ? (i->suspended == MHD_YES ? 1 : 0) : -1;
}

/// Milliseconds since the kernel last received data on `fd`, or -1 when unknown.
static inline long cmhd_ms_since_last_recv(int fd)
{
#ifdef TCP_INFO
    struct tcp_info info;
    socklen_t len = sizeof(info);
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) != 0) return -1;
    return (long)info.tcpi_last_data_recv;
#else
    return -1;
#endif
}

static inline void cmhd_ignore_sigpipe(void) { signal(SIGPIPE, SIG_IGN); }
#endif
