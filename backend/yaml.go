package backend

import "sigs.k8s.io/yaml"

// yamlToJSON lets profiles be written in YAML; they are then read exactly
// as their JSON form.
func yamlToJSON(data []byte) ([]byte, error) { return yaml.YAMLToJSON(data) }
