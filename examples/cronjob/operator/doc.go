// Package operator is the CronJob operator of examples/cronjob: a
// controller that runs each CronJob's Jobs on schedule (Setup), and its
// webhooks (Hooks): defaults, validation, and conversion between the
// API's v1 and v2. main.go runs both under a manager.
package operator
