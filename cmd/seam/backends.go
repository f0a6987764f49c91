package main

import (
	"github.com/spf13/cobra"

	"github.com/seam-rt/seam/backend"
)

func backendsCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "backends [NAME|FILE]",
		Short: "List the built-in backend profiles and their contracts, or show one profile",
		Long: "backends lists the built-in profiles with their contracts: ops, what each kind of\n" +
			"symbolic placeholder may be (refuse, int: a plain scalar, tensor: a rank-0 tensor),\n" +
			"dtypes, shapes and partitioning. Given a name or a profile file, it shows that\n" +
			"profile; --json prints it in the file form, a starting point for your own.\n" +
			"Without a name, --json prints one document: {\"backends\": [{\"available\": ...,\n" +
			"\"profile\": FILE FORM}, ...]}.",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var profiles []*backend.Profile
			if len(args) == 1 {
				p, err := backend.Resolve(args[0])
				if err != nil {
					return err
				}
				profiles = append(profiles, p)
			} else {
				for _, name := range backend.BuiltinNames() {
					p, _ := backend.Builtin(name)
					profiles = append(profiles, p)
				}
			}
			if asJSON && len(args) == 1 {
				return profiles[0].WriteJSON(cmd.OutOrStdout())
			}
			if asJSON {
				list := backendList{Backends: []backendEntry{}}
				for _, p := range profiles {
					e := backendEntry{Available: true, Profile: p}
					if err := backend.Available(p.Name); err != nil {
						e.Available, e.Unavailable = false, err.Error()
					}
					list.Backends = append(list.Backends, e)
				}
				return writeJSON(cmd.OutOrStdout(), list)
			}
			return backend.WriteTable(cmd.OutOrStdout(), profiles)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the profile in its file form (without a name: all, as one document)")
	return cmd
}

// backendList is what backends --json prints without a name.
type backendList struct {
	Backends []backendEntry `json:"backends"`
}

type backendEntry struct {
	// Available: the backend can run here (onnxruntime needs its library).
	Available   bool             `json:"available"`
	Unavailable string           `json:"unavailable,omitempty"`
	Profile     *backend.Profile `json:"profile"`
}
