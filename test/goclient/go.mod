module woodpecker-ci-mcp/test/goclient

go 1.26

require github.com/modelcontextprotocol/go-sdk v1.8.0 // indirect
