# Build a static ladderbot binary, then ship it alone on a distroless base
# as a non-root user.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/ladderbot .

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/ladderbot /ladderbot
USER nonroot:nonroot
EXPOSE 8080
ENV HTTP_ADDR=0.0.0.0:8080
ENTRYPOINT ["/ladderbot"]
CMD ["run"]
