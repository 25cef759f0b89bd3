/*
 * netaddr: classes of IPv4 and IPv6 addresses (RFC 6890's special-purpose
 * registries, reduced to what decides "may a public index send us there").
 */
#include "netaddr.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

static int classify4(const uint8_t a[4])
{
    uint32_t x = (uint32_t)a[0] << 24 | (uint32_t)a[1] << 16 | (uint32_t)a[2] << 8 | a[3];
    static const struct {
        uint32_t net, mask;
        int cls;
    } nets[] = {
        {0x00000000u, 0xFF000000u, NETADDR_UNSPECIFIED}, /* 0.0.0.0/8 */
        {0x0A000000u, 0xFF000000u, NETADDR_PRIVATE},     /* 10.0.0.0/8 */
        {0x64400000u, 0xFFC00000u, NETADDR_PRIVATE},     /* 100.64.0.0/10 (CGNAT) */
        {0x7F000000u, 0xFF000000u, NETADDR_LOOPBACK},    /* 127.0.0.0/8 */
        {0xA9FE0000u, 0xFFFF0000u, NETADDR_LINK_LOCAL},  /* 169.254.0.0/16 */
        {0xAC100000u, 0xFFF00000u, NETADDR_PRIVATE},     /* 172.16.0.0/12 */
        {0xC0000000u, 0xFFFFFF00u, NETADDR_SPECIAL},     /* 192.0.0.0/24 (IETF) */
        {0xC0A80000u, 0xFFFF0000u, NETADDR_PRIVATE},     /* 192.168.0.0/16 */
        {0xC6120000u, 0xFFFE0000u, NETADDR_SPECIAL},     /* 198.18.0.0/15 (benchmarks) */
        {0xE0000000u, 0xF0000000u, NETADDR_SPECIAL},     /* 224.0.0.0/4 (multicast) */
        {0xF0000000u, 0xF0000000u, NETADDR_SPECIAL},     /* 240.0.0.0/4 and broadcast */
    };
    for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++)
        if ((x & nets[i].mask) == nets[i].net)
            return nets[i].cls;
    return NETADDR_PUBLIC;
}

static int classify6(const uint8_t a[16])
{
    static const uint8_t zero[16];
    static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF};
    static const uint8_t nat64[12] = {0x00, 0x64, 0xFF, 0x9B}; /* 64:ff9b::/96 */
    if (memcmp(a, zero, 15) == 0 && (a[15] == 0 || a[15] == 1))
        return a[15] ? NETADDR_LOOPBACK : NETADDR_UNSPECIFIED;
    if (memcmp(a, mapped, 12) == 0 || memcmp(a, nat64, 12) == 0)
        return classify4(a + 12);
    if (memcmp(a, zero, 12) == 0) /* deprecated IPv4-compatible ::a.b.c.d */
        return classify4(a + 12);
    if (a[0] == 0x20 && a[1] == 0x02) /* 2002::/16, 6to4: the embedded IPv4 */
        return classify4(a + 2);
    if ((a[0] & 0xFE) == 0xFC)
        return NETADDR_PRIVATE; /* fc00::/7 unique local */
    if (a[0] == 0xFE && (a[1] & 0xC0) == 0x80)
        return NETADDR_LINK_LOCAL; /* fe80::/10 */
    if (a[0] == 0xFE && (a[1] & 0xC0) == 0xC0)
        return NETADDR_PRIVATE; /* fec0::/10, deprecated site-local */
    if (a[0] == 0xFF)
        return NETADDR_SPECIAL; /* multicast */
    return NETADDR_PUBLIC;
}

int netaddr_classify(const struct sockaddr *sa, size_t len)
{
    if (sa->sa_family == AF_INET && len >= sizeof(struct sockaddr_in)) {
        const struct sockaddr_in *s4 = (const struct sockaddr_in *)sa;
        uint8_t a[4];
        memcpy(a, &s4->sin_addr, 4);
        return classify4(a);
    }
    if (sa->sa_family == AF_INET6 && len >= sizeof(struct sockaddr_in6)) {
        const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)sa;
        uint8_t a[16];
        memcpy(a, &s6->sin6_addr, 16);
        return classify6(a);
    }
    return NETADDR_SPECIAL; /* not IP: never a public index's business */
}

int netaddr_classify_text(const char *s)
{
    char buf[64];
    size_t n = strlen(s);
    if (n >= 2 && s[0] == '[' && s[n - 1] == ']') {
        s++;
        n -= 2;
    }
    if (n == 0 || n >= sizeof buf)
        return -1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    char *pct = strchr(buf, '%'); /* fe80::1%eth0 */
    if (pct)
        *pct = '\0';
    uint8_t a[16];
    if (inet_pton(AF_INET, buf, a) == 1)
        return classify4(a);
    if (inet_pton(AF_INET6, buf, a) == 1)
        return classify6(a);
    return -1;
}

int netaddr_host_is_local(const char *host)
{
    int cls = netaddr_classify_text(host);
    if (cls >= 0)
        return cls != NETADDR_PUBLIC;
    size_t n = strlen(host);
    while (n && host[n - 1] == '.')
        n--; /* "localhost." */
    if (n == 9 && strncasecmp(host, "localhost", 9) == 0)
        return 1;
    return n > 10 && strncasecmp(host + n - 10, ".localhost", 10) == 0;
}

const char *netaddr_class_name(int cls)
{
    switch (cls) {
    case NETADDR_PUBLIC:
        return "public address";
    case NETADDR_LOOPBACK:
        return "loopback address";
    case NETADDR_PRIVATE:
        return "private address";
    case NETADDR_LINK_LOCAL:
        return "link-local address";
    case NETADDR_UNSPECIFIED:
        return "unspecified address";
    default:
        return "reserved address";
    }
}
