// Package rules adds two merge rules to ply from outside its module, through its public API only
// (pkg/elements.RegisterRule, pkg/features.Register, openapi.Schema.WithRules and the x-ply-merge-rule extension):
//
//   - KeepLive (gate KeepLiveOwner): fields another writer owns. The field keeps live's value whatever the manifest
//     says: a Deployment's spec.replicas under a HorizontalPodAutoscaler, a webhook's caBundle that cert-manager
//     injects. The change list reports the field as kept, the conflict check raises no conflict for it, and a
//     strategic merge patch never touches it.
//   - MergeByKey (gate MergeByKeyLists): a list of maps that its schema leaves atomic merged by the merge key the
//     declaration names (args), as if the schema said x-kubernetes-list-type: map — without editing the CRD.
//
// Importing the package registers both rules and both gates; declare where they apply with Owned and ListKeyedBy
// (field rules in code), or with x-ply-merge-rule in a schema document ply reads.
package rules
