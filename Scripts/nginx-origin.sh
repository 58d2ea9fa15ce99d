# Sourced by the benchmark scripts and gates: `start_origin <work folder> <root> [outage] [trickle]`
# starts nginx-light with one worker on 127.0.0.1 (a random port) serving <root>, tuned for
# throughput (sendfile, no access log, keep-alive), and sets PORT and NGINX_PID once it accepts
# connections. With `outage`, every request is answered 503 while <root>/.down exists (an origin
# outage, switched by creating and removing that file; off by default: the check costs a stat per
# request). With `trickle`, whatever is under /trickle/ is sent at 2 bytes a second. As root,
# workers stay the invoking user (www-data may not read the checkout).
start_origin() {
  local work="$1" root="$2" outage="" feature
  for feature in "${@:3}"; do
    case "$feature" in
      outage) outage+='location / { if (-f $document_root/.down) { return 503; } } ' ;;
      trickle) outage+='location /trickle/ { limit_rate 2; } ' ;;
    esac
  done
  mkdir -p "$work/nginx/logs" "$work/nginx/tmp"
  PORT=$((20000 + RANDOM % 20000))
  local user_line=""; [ "$(id -u)" = 0 ] && user_line="user $(id -un) $(id -gn);"
  cat > "$work/nginx/nginx.conf" <<CONF
$user_line
worker_processes 1; daemon off; pid nginx.pid; error_log logs/error.log warn;
events { worker_connections 1024; }
http { access_log off; sendfile on; tcp_nodelay on; keepalive_requests 1000000;
  types { application/vnd.apple.mpegurl m3u8; video/mp2t ts; video/mp4 mp4 m4s; text/vtt vtt; application/octet-stream key bin; }
  client_body_temp_path tmp; proxy_temp_path tmp; fastcgi_temp_path tmp; uwsgi_temp_path tmp; scgi_temp_path tmp;
  server { listen 127.0.0.1:$PORT; root $root; $outage } }
CONF
  (cd "$work/nginx" && exec nginx -p "$work/nginx/" -c nginx.conf) & NGINX_PID=$!
  # Ours only once nginx wrote its pid (it has bound the port): another process's listener on
  # the port would answer the connect too.
  for _ in $(seq 1 100); do
    [ "$(cat "$work/nginx/nginx.pid" 2>/dev/null)" = "$NGINX_PID" ] && (exec 3<>/dev/tcp/127.0.0.1/$PORT) 2>/dev/null && return 0
    kill -0 "$NGINX_PID" 2>/dev/null || break
    sleep 0.05
  done
  echo "nginx did not start on port $PORT" >&2
  return 1
}
