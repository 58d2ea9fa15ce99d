// libmicrohttpd (0.9.75+) for Tessera's loopback server: fixed-signature wrappers for the
// variadic calls Swift cannot import, plus two Linux helpers (TCP_INFO idle time and a
// symlink-refusing openat2 confined beneath a root directory).
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
#ifdef __linux__
#include <sys/syscall.h>
#include <linux/openat2.h>
#endif

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

/// Opens `path` (relative, already checked for `..`) beneath `rootfd` for reading, refusing any
/// symlink on the way and any escape from the root. Falls back to openat(O_NOFOLLOW) only when the
/// kernel lacks openat2. Returns -1 with errno set on failure.
static inline int cmhd_open_beneath(int rootfd, const char *path)
{
#if defined(__linux__) && defined(SYS_openat2)
    struct open_how how;
    memset(&how, 0, sizeof(how));
    how.flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    long fd = syscall(SYS_openat2, rootfd, path, &how, sizeof(how));
    if (fd >= 0 || errno != ENOSYS) return (int)fd;
#endif
    return openat(rootfd, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
}

static inline void cmhd_ignore_sigpipe(void) { signal(SIGPIPE, SIG_IGN); }
#endif
