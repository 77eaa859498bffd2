/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-http.c: Thrift over HTTP and HTTPS to a gateway in HTTP mode, on
 * libcurl (hbase-http.h).  Each channel is one easy handle in a multi
 * handle of its own: the multi handle keeps the connection alive between
 * POSTs, and a call waits in curl_multi_poll() on curl's sockets and the
 * call's GCancellable at once, so a cancellation or the deadline ends it
 * within milliseconds.  Replies are bounded while they arrive (headers and
 * body), and curl's failures become HBASE_ERROR messages that say what is
 * wrong and with which gateway (TLS trust, host name, expiry, plain HTTP
 * on an https URL, handshake), never quoting a key password.  With
 * Kerberos, each request carries a fresh SPNEGO token and the doAs header
 * (hbase-http-spnego.c), and the gateway's refusals (401, a refused
 * impersonation) are HBASE_ERROR_AUTHENTICATION with its own words, never
 * with a token. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <curl/curl.h>

#include <hbase-glib/hbase-error.h>

#include "hbase-http.h"
#include "hbase-http-spnego.h"
#include "../core/hbase-error-private.h"

/* X509_V_ERR_* of OpenSSL's <openssl/x509_vfy.h>, as CURLINFO_SSL_VERIFYRESULT
 * reports them with the OpenSSL flavour of libcurl (values fixed by OpenSSL's ABI). */
#define X509_V_OK 0
#define X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT 2
#define X509_V_ERR_CERT_NOT_YET_VALID 9
#define X509_V_ERR_CERT_HAS_EXPIRED 10
#define X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT 18
#define X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN 19
#define X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY 20
#define X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE 21
#define X509_V_ERR_CERT_REVOKED 23
#define X509_V_ERR_HOSTNAME_MISMATCH 62
#define X509_V_ERR_IP_ADDRESS_MISMATCH 64

struct _HBaseHttpChannel {
  char *url;
  gboolean https;
  HBaseTlsSettings tls;
  guint connect_timeout_ms;
  CURLM *multi;
  CURL *easy;
  struct curl_slist *headers;
  char errbuf[CURL_ERROR_SIZE];
  curl_socket_t fd;   /* the connection curl keeps open, or CURL_SOCKET_BAD */
  HBaseHttpSpnego *spnego;              /* Kerberos, or NULL */
  struct curl_slist *request_headers;   /* headers plus the token, during a request */
  guint requests_started;   /* times curl was about to send this POST's request */
  gboolean resend_refused;  /* curl wanted to send it again on a new connection */

  /* the response being received: the status line and the scheme of
   * WWW-Authenticate (not its token: mutual authentication data) */
  char status_line[96];
  char www_authenticate[32];

  /* the response being received */
  GByteArray *reply;
  gsize max_reply;
  gsize header_bytes;
  gboolean reply_too_large;
  gboolean headers_too_large;
};

static gsize curl_initialised;

/* curl_global_init() is not thread-safe in every libcurl: once, first. */
static void
init_curl (void)
{
  if (g_once_init_enter (&curl_initialised))
    {
      curl_global_init (CURL_GLOBAL_DEFAULT);
      g_once_init_leave (&curl_initialised, 1);
    }
}

static size_t
on_body (char *data, size_t size, size_t n, void *user_data)
{
  HBaseHttpChannel *channel = user_data;
  gsize bytes = size * n;

  if (bytes > channel->max_reply - channel->reply->len)
    {
      channel->reply_too_large = TRUE;
      return 0;   /* CURLE_WRITE_ERROR */
    }
  g_byte_array_append (channel->reply, (const guint8 *) data, (guint) bytes);
  return bytes;
}

/* Bounds the header block, and refuses a body announced too large before
 * any of it arrives. */
static size_t
on_header (char *data, size_t size, size_t n, void *user_data)
{
  HBaseHttpChannel *channel = user_data;
  gsize bytes = size * n;
  static const char name[] = "content-length:";

  channel->header_bytes += bytes;
  if (channel->header_bytes > HBASE_HTTP_MAX_HEADER_BYTES)
    {
      channel->headers_too_large = TRUE;
      return 0;
    }
  if (bytes > 5 && strncmp (data, "HTTP/", 5) == 0)
    {
      gsize kept = MIN (bytes, sizeof channel->status_line - 1);

      memcpy (channel->status_line, data, kept);
      channel->status_line[kept] = '\0';
      g_strchomp (channel->status_line);
      /* it goes into error messages: printable ASCII only */
      for (char *p = channel->status_line; *p != '\0'; p++)
        if (!g_ascii_isprint (*p))
          *p = '?';
      channel->www_authenticate[0] = '\0';
    }
  else if (bytes > 17 && g_ascii_strncasecmp (data, "www-authenticate:", 17) == 0)
    {
      const char *p = data + 17, *end = data + bytes;
      gsize kept = 0;

      while (p < end && (*p == ' ' || *p == '\t'))
        p++;
      /* the scheme only: what follows may be a token */
      while (p + kept < end && g_ascii_isalnum (p[kept]) &&
             kept < sizeof channel->www_authenticate - 1)
        kept++;
      if (channel->www_authenticate[0] == '\0')
        {
          memcpy (channel->www_authenticate, p, kept);
          channel->www_authenticate[kept] = '\0';
        }
    }
  if (bytes > sizeof name && g_ascii_strncasecmp (data, name, sizeof name - 1) == 0)
    {
      g_autofree char *value = g_strndup (data + sizeof name - 1, bytes - (sizeof name - 1));
      guint64 length = g_ascii_strtoull (g_strstrip (value), NULL, 10);

      if (length > channel->max_reply)
        {
          channel->reply_too_large = TRUE;
          return 0;
        }
    }
  return bytes;
}

/* curl opens and closes its sockets through these, so that the channel
 * knows the kept-alive connection's socket (CURLINFO_ACTIVESOCKET names
 * it only for CURLOPT_CONNECT_ONLY transfers) and can tell whether the
 * gateway closed it while it idled. */
static curl_socket_t
on_open_socket (void *user_data, curlsocktype purpose, struct curl_sockaddr *address)
{
  HBaseHttpChannel *channel = user_data;
  curl_socket_t fd = socket (address->family, address->socktype | SOCK_CLOEXEC, address->protocol);

  if (fd != CURL_SOCKET_BAD && purpose == CURLSOCKTYPE_IPCXN)
    channel->fd = fd;
  return fd;
}

static int
on_close_socket (void *user_data, curl_socket_t fd)
{
  HBaseHttpChannel *channel = user_data;

  if (fd == channel->fd)
    channel->fd = CURL_SOCKET_BAD;
  return close (fd);
}

/* Called by curl right before it sends a request on a connection.  A
 * second call within one POST means that the kept-alive connection died
 * before any reply byte and curl is about to send the request again on a
 * new one, on its own (seen when the gateway resets the connection after
 * reading the request).  Whether a call that must not be applied twice
 * (increment, append, check-and-mutate) may be sent again is the client's
 * decision, as on a socket: the transfer is aborted instead, and the
 * client sees a connection lost after its request went out. */
static int
on_request_ready (void *user_data, char *primary_ip, char *local_ip, int primary_port,
                  int local_port)
{
  HBaseHttpChannel *channel = user_data;

  if (++channel->requests_started == 1)
    return CURL_PREREQFUNC_OK;
  channel->resend_refused = TRUE;
  return CURL_PREREQFUNC_ABORT;
}

HBaseHttpChannel *
_hbase_http_channel_new (const char *url, const char *host, const HBaseTlsSettings *tls,
                         const HBaseKerberosSettings *kerberos, guint connect_timeout_ms)
{
  HBaseHttpChannel *channel = g_new0 (HBaseHttpChannel, 1);
  CURL *easy;

  init_curl ();
  channel->url = g_strdup (url);
  channel->https = g_ascii_strncasecmp (url, "https:", 6) == 0;
  _hbase_tls_settings_copy (&channel->tls, tls);
  channel->connect_timeout_ms = connect_timeout_ms;
  channel->fd = CURL_SOCKET_BAD;
  channel->reply = g_byte_array_new ();
  if (kerberos != NULL)
    channel->spnego = _hbase_http_spnego_new (kerberos, host);
  channel->multi = curl_multi_init ();
  channel->easy = easy = curl_easy_init ();
  if (channel->multi == NULL || easy == NULL)
    g_error ("libcurl could not allocate a handle");
  curl_multi_setopt (channel->multi, CURLMOPT_MAXCONNECTS, 1L);

  channel->headers = curl_slist_append (channel->headers, "Content-Type: application/x-thrift");
  /* text too, at a low weight: Jetty writes its error page (the
   * server's reason for a 500, such as a refused doAs) only in a type the
   * request accepts, and with Thrift alone there is none */
  channel->headers = curl_slist_append (channel->headers,
                                        "Accept: application/x-thrift, text/plain;q=0.1");
  /* no "Expect: 100-continue" round trip before large requests */
  channel->headers = curl_slist_append (channel->headers, "Expect:");

  curl_easy_setopt (easy, CURLOPT_URL, url);
  curl_easy_setopt (easy, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt (easy, CURLOPT_POST, 1L);
  curl_easy_setopt (easy, CURLOPT_HTTPHEADER, channel->headers);
  curl_easy_setopt (easy, CURLOPT_HTTP_VERSION, (long) CURL_HTTP_VERSION_1_1);
  curl_easy_setopt (easy, CURLOPT_NOSIGNAL, 1L);   /* threads: no SIGALRM */
  curl_easy_setopt (easy, CURLOPT_TCP_NODELAY, 1L);
  curl_easy_setopt (easy, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt (easy, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt (easy, CURLOPT_ERRORBUFFER, channel->errbuf);
  curl_easy_setopt (easy, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt (easy, CURLOPT_WRITEDATA, channel);
  curl_easy_setopt (easy, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt (easy, CURLOPT_HEADERDATA, channel);
  curl_easy_setopt (easy, CURLOPT_PREREQFUNCTION, on_request_ready);
  curl_easy_setopt (easy, CURLOPT_PREREQDATA, channel);
  curl_easy_setopt (easy, CURLOPT_OPENSOCKETFUNCTION, on_open_socket);
  curl_easy_setopt (easy, CURLOPT_OPENSOCKETDATA, channel);
  curl_easy_setopt (easy, CURLOPT_CLOSESOCKETFUNCTION, on_close_socket);
  curl_easy_setopt (easy, CURLOPT_CLOSESOCKETDATA, channel);
  /* TLS: at least 1.2; the peer is always verified, its name unless told not to */
  curl_easy_setopt (easy, CURLOPT_SSLVERSION, (long) CURL_SSLVERSION_TLSv1_2);
  curl_easy_setopt (easy, CURLOPT_SSL_VERIFYPEER, 1L);
  curl_easy_setopt (easy, CURLOPT_SSL_VERIFYHOST, tls->no_verify_hostname ? 0L : 2L);
  /* CAs named by tls-ca-file or tls-ca-path replace the system's trust
   * store: both options are set, to the configured value or NULL, since
   * libcurl keeps its built-in default for the one left alone (Debian's:
   * CAPATH /etc/ssl/certs), which would trust every public CA for the
   * gateway's name beside a private one */
  if (tls->ca_file != NULL || tls->ca_path != NULL)
    {
      curl_easy_setopt (easy, CURLOPT_CAINFO, tls->ca_file);
      curl_easy_setopt (easy, CURLOPT_CAPATH, tls->ca_path);
    }
  if (tls->client_cert != NULL)
    {
      curl_easy_setopt (easy, CURLOPT_SSLCERT, tls->client_cert);
      if (tls->client_key != NULL)
        curl_easy_setopt (easy, CURLOPT_SSLKEY, tls->client_key);
      if (tls->client_key_password != NULL)
        curl_easy_setopt (easy, CURLOPT_KEYPASSWD, tls->client_key_password);
    }
  return channel;
}

void
_hbase_http_channel_free (HBaseHttpChannel *channel)
{
  if (channel == NULL)
    return;
  curl_easy_cleanup (channel->easy);
  curl_multi_cleanup (channel->multi);   /* closes the kept-alive connection */
  curl_slist_free_all (channel->headers);
  _hbase_http_spnego_free_headers (channel->request_headers);
  _hbase_http_spnego_free (channel->spnego);
  g_byte_array_unref (channel->reply);
  _hbase_tls_settings_clear (&channel->tls);
  g_free (channel->url);
  g_free (channel);
}

gboolean
_hbase_http_channel_is_alive (HBaseHttpChannel *channel)
{
  curl_socket_t fd = channel->fd;
  struct pollfd pfd;
  char byte;

  if (fd == CURL_SOCKET_BAD)
    return TRUE;   /* none kept: the next POST connects */
  pfd = (struct pollfd) { .fd = fd, .events = POLLIN | POLLRDHUP };
  if (poll (&pfd, 1, 0) == 0)
    return TRUE;
  if (pfd.revents & (POLLERR | POLLHUP | POLLRDHUP | POLLNVAL))
    return FALSE;
  /* readable while no reply is due: the end of the stream, stray bytes, or
   * (TLS) a record such as a session ticket, which is harmless */
  if (recv (fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT) == 0)
    return FALSE;
  return channel->https;
}

/* The TLS part of the message of a failed verification. */
static void
set_verify_error (HBaseHttpChannel *channel, const char *description, GError **error)
{
  long result = X509_V_OK;
  const char *hint;

  curl_easy_getinfo (channel->easy, CURLINFO_SSL_VERIFYRESULT, &result);
  /* curl checks the host name itself once OpenSSL verified the chain
   * (the verify result then stays what it was) */
  if (strstr (channel->errbuf, "subject name") != NULL ||
      strstr (channel->errbuf, "host name") != NULL)
    result = X509_V_ERR_HOSTNAME_MISMATCH;
  switch (result)
    {
    case X509_V_ERR_CERT_HAS_EXPIRED:
      hint = "its TLS certificate has expired";
      break;
    case X509_V_ERR_CERT_NOT_YET_VALID:
      hint = "its TLS certificate is not valid yet (check the clocks)";
      break;
    case X509_V_ERR_CERT_REVOKED:
      hint = "its TLS certificate is revoked";
      break;
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
    case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
    case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
      hint = channel->tls.ca_file != NULL || channel->tls.ca_path != NULL
        ? "its TLS certificate is not trusted: it is not signed by a CA of tls-ca-file/tls-ca-path"
        : "its TLS certificate is not trusted: it is not signed by a CA of the system's "
          "trust store (name the gateway's CA with tls-ca-file)";
      break;
    case X509_V_ERR_HOSTNAME_MISMATCH:
    case X509_V_ERR_IP_ADDRESS_MISMATCH:
      hint = "its TLS certificate does not name the host of the URL (connect by a name the "
             "certificate carries, or turn tls-verify-hostname off)";
      break;
    default:
      hint = "its TLS certificate failed verification";
    }
  g_set_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION,
               "cannot trust the gateway %s: %s (%s)", description, hint, channel->errbuf);
  _hbase_error_set_permanent (*error);
}

/* The errbuf of a failed handshake that met something else than TLS. */
static gboolean
is_not_tls (const char *errbuf)
{
  return strstr (errbuf, "wrong version number") != NULL ||
         strstr (errbuf, "packet length too long") != NULL ||
         strstr (errbuf, "http request") != NULL;
}

/* A failed transfer as an HBASE_ERROR (@error may be NULL). */
static void
set_curl_error (HBaseHttpChannel *channel, CURLcode rc, const char *description, GError **error)
{
  GError *local = NULL;
  const char *detail = channel->errbuf[0] != '\0' ? channel->errbuf : curl_easy_strerror (rc);

  switch (rc)
    {
    case CURLE_WRITE_ERROR:
      if (channel->reply_too_large || channel->headers_too_large)
        {
          if (channel->headers_too_large)
            local = g_error_new (HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                                 "the reply from %s has more than %u bytes of HTTP headers",
                                 description, HBASE_HTTP_MAX_HEADER_BYTES);
          else
            local = g_error_new (HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                                 "the reply from %s exceeds %" G_GSIZE_FORMAT " bytes "
                                 "(max-message-size)", description, channel->max_reply);
          break;
        }
      local = g_error_new (HBASE_ERROR, HBASE_ERROR_CONNECTION,
                           "cannot receive from the gateway %s: %s", description, detail);
      break;
    case CURLE_OPERATION_TIMEDOUT:
      local = g_error_new (HBASE_ERROR, HBASE_ERROR_TIMEOUT,
                           "timed out connecting to the gateway %s: %s", description, detail);
      break;
    case CURLE_COULDNT_RESOLVE_HOST:
      local = g_error_new (HBASE_ERROR, HBASE_ERROR_CONNECTION,
                           "cannot resolve the host of the gateway %s: %s", description, detail);
      _hbase_error_set_permanent (local);
      break;
    case CURLE_COULDNT_CONNECT:
      local = g_error_new (HBASE_ERROR, HBASE_ERROR_CONNECTION,
                           "cannot connect to Thrift2 gateway %s: %s", description, detail);
      break;
    case CURLE_PEER_FAILED_VERIFICATION:
      set_verify_error (channel, description, error);
      return;
    case CURLE_SSL_CONNECT_ERROR:
      if (is_not_tls (detail))
        {
          local = g_error_new (HBASE_ERROR, HBASE_ERROR_CONNECTION,
                               "the gateway %s does not speak TLS (a plain HTTP server? then "
                               "use an http:// URL): %s", description, detail);
          _hbase_error_set_permanent (local);
        }
      else
        {
          local = g_error_new (HBASE_ERROR, HBASE_ERROR_CONNECTION,
                               "the TLS handshake with the gateway %s failed: %s",
                               description, detail);
          /* an alert is the server's answer; a reset may be a restart */
          if (strstr (detail, "alert") != NULL || strstr (detail, "unsupported") != NULL)
            _hbase_error_set_permanent (local);
        }
      break;
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_ENGINE_INITFAILED:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_ENGINE_SETFAILED:
      local = g_error_new (HBASE_ERROR, HBASE_ERROR_CONNECTION,
                           "cannot set up TLS for the gateway %s (check tls-ca-file, tls-ca-path, "
                           "tls-client-cert, tls-client-key and the key password): %s",
                           description, detail);
      _hbase_error_set_permanent (local);
      break;
    case CURLE_GOT_NOTHING:
      local = g_error_new (HBASE_ERROR, HBASE_ERROR_CONNECTION,
                           "the gateway %s closed the connection without replying "
                           "(is it a gateway in HTTP mode?)", description);
      break;
    case CURLE_WEIRD_SERVER_REPLY:
    case CURLE_UNSUPPORTED_PROTOCOL:
      local = g_error_new (HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                           "the server at %s does not answer in HTTP (a gateway not in HTTP "
                           "mode is reached as HOST:PORT; an https server by an https:// URL): %s", description, detail);
      break;
    default:
      local = g_error_new (HBASE_ERROR, HBASE_ERROR_CONNECTION,
                           "the call to the gateway %s failed: %s", description, detail);
    }
  g_propagate_error (error, local);
}

/* The server's own message in an error page: the first line of Jetty's
 * text page ("HTTP ERROR 500 javax.servlet.ServletException: ...Exception:
 * User: alice is not allowed to impersonate client"; the <title> of an
 * HTML one) without the status and the exception class names; printable
 * ASCII, at most 300 characters.  NULL if there is none.  (Jetty writes
 * no error page unless the request accepts text: see the Accept header.) */
static char *
server_message (HBaseHttpChannel *channel)
{
  const char *body = (const char *) channel->reply->data;
  gsize length = channel->reply->len;
  g_autofree char *text = NULL;
  const char *start, *end, *found;

  if (length == 0)
    return NULL;
  text = g_strndup (body, length);
  if ((start = strstr (text, "<title>")) != NULL && (end = strstr (start, "</title>")) != NULL)
    start += strlen ("<title>");
  else
    {
      start = text;
      end = start + strcspn (start, "\r\n");
      if (*start == '<')
        return NULL;
    }
  /* past "HTTP ERROR NNN " or "Error NNN ", and every "...Exception: " */
  if (g_str_has_prefix (start, "HTTP ERROR ") && end - start > 15 && g_ascii_isdigit (start[11]))
    start += 15;
  else if (g_str_has_prefix (start, "Error ") && end - start > 10 && g_ascii_isdigit (start[6]))
    start += 10;
  while ((found = g_strstr_len (start, end - start, "Exception: ")) != NULL)
    start = found + strlen ("Exception: ");
  return _hbase_error_printable (start, (gsize) (end - start));
}

gboolean
_hbase_http_parse_response (const char *headers, gsize headers_len, const guint8 *body,
                            gsize body_len, gsize max_reply, char **status_line,
                            char **www_authenticate, char **message)
{
  HBaseHttpChannel channel = { 0 };
  gboolean ok = TRUE;
  gsize at = 0;

  channel.reply = g_byte_array_new ();
  channel.max_reply = max_reply;
  /* curl hands over one header line at a time, its end of line included */
  while (ok && at < headers_len)
    {
      const char *nl = memchr (headers + at, '\n', headers_len - at);
      gsize line = nl != NULL ? (gsize) (nl - (headers + at)) + 1 : headers_len - at;
      /* a copy of its own, so that a read past the line is caught */
      g_autofree char *copy = g_memdup2 (headers + at, line);

      ok = on_header (copy, 1, line, &channel) == line;
      at += line;
    }
  if (ok && body_len > 0)
    {
      g_autofree guint8 *copy = g_memdup2 (body, body_len);

      ok = on_body ((char *) copy, 1, body_len, &channel) == body_len;
    }
  *status_line = g_strdup (channel.status_line);
  *www_authenticate = g_strdup (channel.www_authenticate);
  *message = server_message (&channel);
  g_byte_array_unref (channel.reply);
  return ok;
}

/* A complete HTTP response that is not a Thrift reply. */
static gboolean
check_response (HBaseHttpChannel *channel, const char *description, GError **error)
{
  long status = 0;
  const char *type = NULL;

  curl_easy_getinfo (channel->easy, CURLINFO_RESPONSE_CODE, &status);
  if (status == 401)
    {
      const char *scheme = channel->www_authenticate[0] != '\0' ? channel->www_authenticate : NULL;

      if (channel->spnego != NULL)
        g_set_error (error, HBASE_ERROR, HBASE_ERROR_AUTHENTICATION,
                     "the gateway %s refused the Kerberos token for %s (%s%s%s): the gateway "
                     "does not accept tickets for that principal (check kerberos-http-principal "
                     "against its hbase.thrift.spnego.principal and keytab), or the clocks differ",
                     description, _hbase_http_spnego_target (channel->spnego), channel->status_line,
                     scheme != NULL ? ", WWW-Authenticate: " : "", scheme != NULL ? scheme : "");
      else if (scheme == NULL || g_ascii_strcasecmp (scheme, "Negotiate") == 0)
        g_set_error (error, HBASE_ERROR, HBASE_ERROR_AUTHENTICATION,
                     "the gateway %s requires Kerberos (SPNEGO) authentication (%s%s%s): turn "
                     "Kerberos on (hbase_config_set_kerberos(), setting kerberos or "
                     "HBASE_GLIB_KERBEROS) with a ticket (kinit) or a keytab",
                     description, channel->status_line,
                     scheme != NULL ? ", WWW-Authenticate: " : "", scheme != NULL ? scheme : "");
      else
        g_set_error (error, HBASE_ERROR, HBASE_ERROR_AUTHENTICATION,
                     "the gateway %s requires %s authentication (%s), which hbase-glib does "
                     "not offer (only Kerberos/SPNEGO)", description, scheme, channel->status_line);
      /* the same credentials will be refused again, by any gateway */
      _hbase_error_set_permanent (*error);
      return FALSE;
    }
  if (status != 200)
    {
      g_autofree char *message = server_message (channel);
      const char *hint = "";

      /* a refused doAs, HTTP 500 from ThriftHttpServlet: Hadoop's
       * AuthorizationException ("User: alice is not allowed to
       * impersonate client"), or "Support for proxyuser is not
       * configured" (hbase.thrift.support.proxyuser off); 403 from a
       * filter that checks it */
      if ((status == 500 || status == 403) && message != NULL &&
          (strstr (message, "impersonate") != NULL || strstr (message, "proxyuser") != NULL ||
           g_strstr_len ((const char *) channel->reply->data, channel->reply->len,
                         "AuthorizationException") != NULL))
        {
          const char *proxy = channel->spnego != NULL
            ? _hbase_http_spnego_proxy_user (channel->spnego) : NULL;

          g_set_error (error, HBASE_ERROR, HBASE_ERROR_AUTHENTICATION,
                       "the gateway %s refused to act for the proxy user %s (%s): %s",
                       description, proxy != NULL ? proxy : "(none)", channel->status_line,
                       message);
          _hbase_error_set_permanent (*error);
          return FALSE;
        }
      if (status == 403)
        hint = " (the authenticated user is not allowed)";
      else if (status == 404)
        hint = " (check the path of the URL)";
      else if (status == 413)
        hint = " (the request is larger than the gateway accepts)";
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION,
                   "the gateway %s answered HTTP %ld%s%s%s", description, status, hint,
                   message != NULL ? ": " : "", message != NULL ? message : "");
      if (status == 403 || status == 404 || status == 413)
        _hbase_error_set_permanent (*error);
      return FALSE;
    }
  curl_easy_getinfo (channel->easy, CURLINFO_CONTENT_TYPE, &type);
  if (type == NULL || g_ascii_strncasecmp (type, "application/x-thrift", 20) != 0)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                   "the server at %s answered with Content-Type %s, not application/x-thrift: "
                   "is it a Thrift2 gateway in HTTP mode?", description,
                   type != NULL ? type : "(none)");
      return FALSE;
    }
  return TRUE;
}

gboolean
_hbase_http_channel_post (HBaseHttpChannel *channel,
                          const guint8     *body,
                          gsize             length,
                          gsize             max_reply,
                          gint64            deadline,
                          GCancellable     *cancellable,
                          const char       *description,
                          guint8          **reply,
                          gsize            *reply_length,
                          guint64          *bytes_sent,
                          guint64          *bytes_received,
                          GError          **error)
{
  CURL *easy = channel->easy;
  CURLcode rc = CURLE_OK;
  CURLMsg *msg;
  curl_off_t uploaded = 0, downloaded = 0;
  long header_size = 0;
  long connect_ms = channel->connect_timeout_ms;
  int running = 1, left;
  gboolean ok = TRUE;

  g_byte_array_set_size (channel->reply, 0);
  channel->max_reply = max_reply;
  channel->header_bytes = 0;
  channel->reply_too_large = channel->headers_too_large = FALSE;
  channel->errbuf[0] = '\0';
  channel->requests_started = 0;
  channel->resend_refused = FALSE;
  channel->status_line[0] = channel->www_authenticate[0] = '\0';
  if (deadline != 0)
    {
      gint64 left_ms = (deadline - g_get_monotonic_time () + 999) / 1000;

      if (left_ms <= 0)
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_TIMEOUT,
                       "timed out before sending a request to %s", description);
          return FALSE;
        }
      if (connect_ms == 0 || left_ms < connect_ms)
        connect_ms = (long) MIN (left_ms, G_MAXLONG);
    }
  curl_easy_setopt (easy, CURLOPT_CONNECTTIMEOUT_MS, connect_ms);
  curl_easy_setopt (easy, CURLOPT_POSTFIELDS, (const char *) body);
  curl_easy_setopt (easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t) length);
  if (channel->spnego != NULL)
    {
      /* a list per request: the token changes every time */
      channel->request_headers = _hbase_http_spnego_headers (channel->spnego, channel->headers,
                                                             description, error);
      if (channel->request_headers == NULL)
        return FALSE;
      curl_easy_setopt (easy, CURLOPT_HTTPHEADER, channel->request_headers);
    }
  curl_multi_add_handle (channel->multi, easy);

  while (ok)
    {
      CURLMcode mc = curl_multi_perform (channel->multi, &running);
      struct curl_waitfd extra = { .fd = -1, .events = CURL_WAIT_POLLIN };
      GPollFD cancel_fd = { .fd = -1 };
      int timeout_ms = 1000;
      guint n_extra = 0;

      if (mc != CURLM_OK)
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION, "libcurl failed on %s: %s",
                       description, curl_multi_strerror (mc));
          ok = FALSE;
          break;
        }
      if (running == 0)
        break;
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          ok = FALSE;
          break;
        }
      if (deadline != 0)
        {
          gint64 left_us = deadline - g_get_monotonic_time ();

          if (left_us <= 0)
            {
              g_set_error (error, HBASE_ERROR, HBASE_ERROR_TIMEOUT,
                           "timed out waiting for a reply from %s", description);
              ok = FALSE;
              break;
            }
          timeout_ms = (int) MIN ((left_us + 999) / 1000, 1000);
        }
      if (cancellable != NULL && g_cancellable_make_pollfd (cancellable, &cancel_fd))
        {
          extra.fd = cancel_fd.fd;
          n_extra = 1;
        }
      mc = curl_multi_poll (channel->multi, n_extra > 0 ? &extra : NULL, n_extra, timeout_ms, NULL);
      if (n_extra > 0)
        g_cancellable_release_fd (cancellable);
      if (mc != CURLM_OK && mc != CURLM_UNRECOVERABLE_POLL)
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION, "libcurl failed on %s: %s",
                       description, curl_multi_strerror (mc));
          ok = FALSE;
        }
    }
  if (ok)
    {
      rc = CURLE_GOT_NOTHING;
      while ((msg = curl_multi_info_read (channel->multi, &left)) != NULL)
        if (msg->msg == CURLMSG_DONE && msg->easy_handle == easy)
          rc = msg->data.result;
    }
  /* removing an unfinished transfer closes its connection: a late reply
   * cannot be taken for the next one's */
  curl_multi_remove_handle (channel->multi, easy);
  if (channel->request_headers != NULL)
    {
      curl_easy_setopt (easy, CURLOPT_HTTPHEADER, channel->headers);
      _hbase_http_spnego_free_headers (channel->request_headers);
      channel->request_headers = NULL;
    }
  curl_easy_getinfo (easy, CURLINFO_SIZE_UPLOAD_T, &uploaded);
  curl_easy_getinfo (easy, CURLINFO_SIZE_DOWNLOAD_T, &downloaded);
  curl_easy_getinfo (easy, CURLINFO_HEADER_SIZE, &header_size);
  /* a refused resend: the first copy may have reached the gateway, even
   * if curl's count started again with the second */
  *bytes_sent += (guint64) MAX (uploaded, channel->resend_refused ? (curl_off_t) MAX (length, 1) : 0);
  *bytes_received += (guint64) MAX (downloaded, 0) + (guint64) MAX (header_size, 0);
  if (!ok)
    return FALSE;
  if (channel->resend_refused)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION,
                   "the gateway %s closed the connection after the request was sent, "
                   "before answering", description);
      return FALSE;
    }
  if (rc != CURLE_OK)
    {
      set_curl_error (channel, rc, description, error);
      return FALSE;
    }
  if (!check_response (channel, description, error))
    return FALSE;
  *reply = g_byte_array_steal (channel->reply, reply_length);
  return TRUE;
}
