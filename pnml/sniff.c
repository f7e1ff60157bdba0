/* What the start of a document looks like, before libxml2 parses it: a
 * file that is not XML at all (an image, an archive, a DOT graph, JSON,
 * CSV) is named as what it is rather than reported as "Document is
 * empty" by the parser. */
#include <config.h>
#include <errno.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "pnml_private.h"

#define NOT_XML "not XML: "
#define IS_XML "; PNML is XML"

static const char MORE[] = "";   /* more bytes are needed to say */

static int blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static int ident(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_' || (unsigned char)c >= 0x80;
}

/* Whether buf (n bytes) starts with magic (m bytes): 1, 0, or -1 when buf
 * is a shorter start of it and more may follow. */
static int magic(const char *buf, size_t n, int final, const char *magic,
                 size_t m)
{
    size_t k = n < m ? n : m;
    if (memcmp(buf, magic, k))
        return 0;
    return k == m ? 1 : final ? 0 : -1;
}

/* A DOT graph: [strict] (graph | digraph) [name] '{', keywords in any
 * case.  p is the first non-blank byte. */
static const char *dot(const char *p, const char *end, int final)
{
    static const char *const words[] = {"strict", "digraph", "graph"};
    for (int seen = 0;; seen++) {
        const char *w = p;
        while (w < end && ident(*w))
            w++;
        if (w == end && !final)
            return MORE;
        size_t len = (size_t)(w - p);
        int k = -1;
        for (int i = seen ? 1 : 0; i < 3 && k < 0; i++)
            if (len == strlen(words[i]) && !strncasecmp(p, words[i], len))
                k = i;
        if (k < 0)
            return NULL;
        /* after "graph" or "digraph", '{' past an optional name, with no
         * '<' (an XML tag) or ';' before it */
        for (p = w; p < end && blank(*p); p++)
            ;
        if (k > 0) {
            while (p < end && *p != '{' && *p != '<' && *p != ';')
                p++;
            if (p == end)
                return final ? NULL : MORE;
            return *p == '{' ? NOT_XML "this looks like a DOT graph "
                                       "(pn-maxplus reads those)" IS_XML
                             : NULL;
        }
    }
}

/* A first line with commas, no '<' and no control bytes: CSV. */
static const char *csv(const char *p, const char *end, int final)
{
    int commas = 0;
    for (; p < end && *p != '\n'; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '<' || (c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
            return NULL;
        commas += c == ',';
    }
    if (p == end && !final)
        return MORE;
    return commas ? NOT_XML "this looks like CSV text" IS_XML : NULL;
}

/* The verdict on buf (n bytes), final when no more bytes will come: NULL
 * (XML, or not known: libxml2 will say), MORE, or a message.  A verdict
 * on a start of the document is the verdict on all of it. */
static const char *sniff(const char *buf, size_t n, int final)
{
    static const struct {
        const char *bytes;
        size_t len;
        const char *what;
    } kinds[] = {
        {"\x1f\x8b", 2, NOT_XML "this is a gzip file" IS_XML
                        " (gunzip it first)"},
        {"\x89PNG", 4, NOT_XML "this is a PNG image" IS_XML},
        {"%PDF", 4, NOT_XML "this is a PDF document" IS_XML},
        {"PK\x03\x04", 4, NOT_XML "this is a zip archive (a compressed "
                                  "PNML bundle?)" IS_XML " (unzip it first)"},
    };
    if (n > PNI_SNIFF_WINDOW) {
        n = PNI_SNIFF_WINDOW;
        final = 1;
    }
    if (n == 0)
        return final ? "not XML: the file is empty" : MORE;
    int more = 0;
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        int m = magic(buf, n, final, kinds[i].bytes, kinds[i].len);
        if (m > 0)
            return kinds[i].what;
        more |= m < 0;
    }
    /* "<?xm" in EBCDIC starts with 'L': libxml2 reads that encoding */
    int ebcdic = magic(buf, n, final, "\x4c\x6f\xa7\x94", 4);
    if (more || ebcdic < 0)
        return MORE;
    const char *p = buf, *end = buf + n;
    int bom = magic(buf, n, final, "\xef\xbb\xbf", 3);
    if (bom < 0)
        return MORE;
    p += bom ? 3 : 0;
    while (p < end && blank(*p))
        p++;
    if (p == end)
        return final ? NULL : MORE;
    if (*p == '<')
        return NULL;
    if (*p == '{' || *p == '[')
        return NOT_XML "this looks like JSON" IS_XML;
    const char *what = dot(p, end, final);
    if (!what)
        what = csv(p, end, final);
    /* XML starts with '<' in UTF-8 and in every encoding libxml2 finds
     * without a declaration but UTF-16, UCS-4 (NUL bytes, which are not
     * printable) and EBCDIC */
    if (!what && !ebcdic && *p > ' ' && *p < 0x7f)
        what = NOT_XML "the text does not start with '<'" IS_XML;
    return what;
}

const char *pni_pnml_sniff(const char *buf, size_t n)
{
    return sniff(buf, n, 1);
}

ssize_t pni_pnml_read_head(int fd, char *block, size_t size, int first)
{
    size_t got = 0;
    for (;;) {
        ssize_t r;
        do
            r = read(fd, block + got, size - got);
        while (r < 0 && errno == EINTR);
        if (r < 0)
            return -1;
        got += (size_t)r;
        /* a pipe gives a few bytes at a time: read on until the start
         * says what it is, as the whole document in memory would */
        if (!first || r == 0 || got == size ||
            sniff(block, got, 0) != MORE)
            return (ssize_t)got;
    }
}
