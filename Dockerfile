# pfeffer's web server as a slim image that runs as a user without privileges (docs/deploy.md).
#   docker build -t pfeffer .
#   docker run -p 8000:8000 -v pfeffer-data:/home/pfeffer/.local/share/pfeffer pfeffer
# Alone it keeps its tables in SQLite; compose.yaml runs two of it on PostgreSQL and Redis.

FROM python:3.11-slim AS build
WORKDIR /build
COPY pyproject.toml README.md ./
COPY src ./src
RUN pip wheel --no-cache-dir --wheel-dir /wheels .

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN groupadd --system --gid 10001 pfeffer \
    && useradd --system --uid 10001 --gid pfeffer --create-home --home-dir /home/pfeffer pfeffer
COPY --from=build /wheels /wheels
RUN pip install /wheels/*.whl && rm -rf /wheels
USER pfeffer:pfeffer
# The solver's cache, made here so that a volume mounted on it belongs to the user (compose.yaml).
RUN mkdir -p /home/pfeffer/.local/share/pfeffer/solver
WORKDIR /home/pfeffer
EXPOSE 8000
# Ready = the process answers and reaches its database (and Redis, where configured).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/readyz', timeout=2)"]
CMD ["pfeffer", "serve", "--host", "0.0.0.0", "--port", "8000", "--log-format", "json"]
