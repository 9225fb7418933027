// A Woodpecker agent with only the local backend compiled in.
//
// The stock agent links the Docker and Kubernetes backends, which roughly triples
// its build time and which the test machines cannot use anyway (no Docker engine).
// build-woodpecker.sh copies this file into the module tree as cmd/agent-local.
package main

import (
	"context"

	"go.woodpecker-ci.org/woodpecker/v3/cmd/agent/core"
	"go.woodpecker-ci.org/woodpecker/v3/pipeline/backend/local"
	backend_types "go.woodpecker-ci.org/woodpecker/v3/pipeline/backend/types"
	"go.woodpecker-ci.org/woodpecker/v3/shared/utils"
)

func main() {
	// No dot_env.Load(): the harness passes every setting explicitly and a stray
	// .env in the working directory must not change a test run.
	ctx := utils.WithContextSigtermCallback(context.Background(), func() {})
	core.RunAgent(ctx, []backend_types.Backend{local.New()})
}
