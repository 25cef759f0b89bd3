/*
 * netaddr: which network addresses a URL from a public index may reach.
 *
 * wheelarch follows links and redirects chosen by indexes it does not
 * control.  Left alone, a public index could make it connect to this
 * machine (127.0.0.1), its private network (10.0.0.0/8, ...) or a cloud
 * metadata service (169.254.169.254), and publish what it found there.
 * The rule: a request that derives from an index whose host is public (any
 * DNS name, or a public IP address) may connect only to public addresses,
 * except to that index's own host, which the operator chose.  An index on
 * a local address (an IP literal in a non-public range, or "localhost")
 * may lead anywhere.  The check is made on the address actually connected
 * (after DNS), so a name that resolves to 127.0.0.1 is refused too.
 */
#ifndef WHEELARCH_NETADDR_H
#define WHEELARCH_NETADDR_H

#include <stddef.h>
#include <sys/socket.h>

enum netaddr_class {
    NETADDR_PUBLIC = 0,
    NETADDR_LOOPBACK,    /* 127.0.0.0/8, ::1 */
    NETADDR_PRIVATE,     /* 10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7 */
    NETADDR_LINK_LOCAL,  /* 169.254/16, fe80::/10 */
    NETADDR_UNSPECIFIED, /* 0.0.0.0/8, :: */
    NETADDR_SPECIAL,     /* multicast, reserved, benchmarking, broadcast */
};

/* The class of a socket address (IPv4, IPv6, IPv4-mapped IPv6). */
int netaddr_classify(const struct sockaddr *sa, size_t len);

/* The class of a numeric address ("127.0.0.1", "::1", "[::1]"), or -1 when
 * s is not a numeric address. */
int netaddr_classify_text(const char *s);

/* Whether a URL host (as written in the URL, without the port) is local:
 * a numeric address that is not public, or "localhost" / "*.localhost". */
int netaddr_host_is_local(const char *host);

/* "loopback address", "private address", ... for messages. */
const char *netaddr_class_name(int cls);

#endif
